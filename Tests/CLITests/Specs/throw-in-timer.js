setTimeout(() => {
  console.log("timer runs");
  null.property;
}, 1);
setTimeout(() => console.log("never: later timer"), 30);
