// printf-style formats: %s %d %i %f %j %o %O %c %%, missing and extra arguments.
console.log("%s is %d years", "Bob", 42.5);
console.log("%i %f %% %c.", 3.9, "1.5", "color: red");
console.log("%j", { a: [1, "two"], b: null });
console.log("%o", [1, { a: 2 }]);
console.log("%O", { deep: { deeper: { deepest: {} } } });
console.log("%s", { a: { b: { c: 1 } } }, "extra", 1);
console.log("%s|%s", "only one");
console.log("%d", "abc");
console.log("%d %i", 10n, 2.7);
console.log("%%s", 1);
const c = {};
c.c = c;
console.log("%j", c);
console.log("%j", { toJSON() { return 5; } });
console.log("%s", Symbol("sym"), null, undefined);
console.log(5, "%s", "x");
