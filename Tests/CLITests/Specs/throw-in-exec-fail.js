bridge.exec(null, (error) => {
  console.log("fail callback got", error.code);
  throw new Error("thrown by the fail callback");
}, "Echo", "fail", [{ code: "EXPECTED" }]);
setTimeout(() => console.log("never: later timer"), 200);
