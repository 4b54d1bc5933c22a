// A CommonJS module for examples/tour.js: `require("./tour-module")` returns `module.exports`.
const data = require("./tour-data.json"); // paths are relative to this file

exports.title = (text) => `== ${text} ==`;
exports.describe = () => `${data.name}: ${data.steps} steps`;
