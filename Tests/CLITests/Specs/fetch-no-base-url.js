// Without --base-url a relative URL is a TypeError.
try {
  new Request("/api");
} catch (error) {
  console.log(error.constructor.name, error.message);
}
fetch("/api").catch((error) => console.log("fetch", error.constructor.name));
