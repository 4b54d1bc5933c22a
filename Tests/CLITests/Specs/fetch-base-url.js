// Relative URLs resolve against --base-url in Request, fetch and Response.redirect.
console.log(new Request("/api/items?x=1#top").url);
console.log(new Request("../up").url);
console.log(Response.redirect("next", 307).headers.get("location"));
fetch("data:,relative%20ok").then((r) => r.text()).then((text) => console.log(text));
