# pydantic v2 peer for Benchmarks/model/run: model_validate_json on the GithubUser fixture.
import sys, time
from typing import Optional
from pydantic import BaseModel, Field

class GithubUser(BaseModel):
    login: str
    user_id: int = Field(alias="id")
    avatar_url: str
    gravatar_id: str
    url: str
    html_url: str
    followers_url: str
    following_url: str
    gists_url: str
    starred_url: str
    subscriptions_url: str
    organizations_url: str
    repos_url: str
    events_url: str
    received_events_url: str
    type: str
    site_admin: bool
    name: str
    company: Optional[str]
    blog: str
    location: str
    email: Optional[str]
    hireable: Optional[bool]
    bio: str
    public_repos: int
    public_gists: int
    followers: int
    following: int

data = open(sys.argv[1] + "/yymodel-githubuser.json", "rb").read()
count = int(sys.argv[2])
GithubUser.model_validate_json(data)
best = float("inf")
for _ in range(7):
    start = time.perf_counter_ns()
    for _ in range(count):
        GithubUser.model_validate_json(data)
    best = min(best, (time.perf_counter_ns() - start) / count)
print(f"RESULT pydantic_ns={best:.0f}")
