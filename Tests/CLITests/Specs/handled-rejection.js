// Rejections handled in the same turn (or a later microtask) are not reported.
const early = Promise.reject(new Error("handled later in a microtask"));
queueMicrotask(() => early.catch((error) => console.log("caught:", error.message)));
Promise.reject(new Error("handled at once")).catch((error) => console.log("caught:", error.message));
(async () => {
  try {
    await Promise.reject(new Error("awaited"));
  } catch (error) {
    console.log("caught:", error.message);
  }
})();
