// A 50 MB string argument round-trips through Echo.echo intact.
const big = "x".repeat(50 * 1024 * 1024 - 3) + "é🌍";
bridge.call("Echo", "echo", { big }).then((result) => {
  console.log("length:", result.big.length, result.big.length === big.length);
  console.log("identical:", result.big === big, "tail:", result.big.slice(-3));
});
