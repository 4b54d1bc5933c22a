// console.log of nested objects, arrays, Maps and Sets (Node's util.inspect layout).
const m = new Map([["a", { b: [1, 2, { c: { d: { e: 1 } } }] }], [1, new Set([1, "x"])]]);
console.log({ a: 1, b: "two", c: [1, 2, 3], d: { e: { f: { g: { h: 1 } } } }, m });
console.log([1, [2, [3, [4, [5]]]]], "str", 42, null, undefined, true);
console.log(new Array(3), [undefined, null], {}, []);
console.log(-0, 1n, "multi\nline", ["a'b"], ['say "hi"']);
console.log(new Map(), new Set(), new Map([[{ k: 1 }, [1]]]));
console.log({ "key with space": 1, valid_id: 2, 3: "numeric" });
class Point { constructor() { this.x = 1; this.y = 2; } }
console.log(new Point(), Object.create(null));
console.log(function named() {}, () => {}, class K {});
console.log(Array.from({ length: 120 }, (_, i) => i));
console.log({ aaaaaaaaaaaaa: "bbbbbbbbbbbbbbbbbbbb", ccccccccccccccccc: "ddddddddddddddddddddd", eeeeeeeee: "fffffffffffffffff" });
const circular = { name: "loop" };
circular.self = circular;
console.log(circular);
console.log([{ a: { b: { c: { d: 1 } } } }]);
console.log(new Map([["nested", new Map([["deeper", new Map([["deepest", 1]])]])]]));
