// node:http without the grant for the listening address or the requested host: PERMISSION_DENIED, as fetch.
const http = require("node:http");
const server = http.createServer();
server.on("error", (error) => {
  console.log("listen", error.name, error.code, error.message);
  const req = http.get("http://127.0.0.1:9/x");
  req.on("error", (error) => console.log("get", error.name, error.code));
});
server.listen(8123, "0.0.0.0");
