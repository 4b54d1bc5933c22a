console.log("main runs");
require("./fixtures/modules/broken.js");
console.log("never printed");
