bridge.exec((value) => {
  console.log("success callback got", value);
  throw new Error("thrown by the success callback");
}, (error) => console.log("never: fail callback", error), "Echo", "echo", ["payload"]);
setTimeout(() => console.log("never: later timer"), 200);
