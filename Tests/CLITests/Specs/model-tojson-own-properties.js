// Model.toJSON reads a model's own properties only, and writes back "[Model]" / "{Model}" collections.
const show = (f) => { try { console.log(JSON.stringify(f())); } catch (e) { console.log(e.code, e.message); } };
Model.define("C", { id: "int", constructor: "string?" });
show(() => Model.toJSON("C", { id: 1 }));
show(() => Model.toJSON("C", { id: 2, constructor: "c" }));
Object.prototype.x = "leak";
Model.define("P", { id: "int", x: "string?" });
show(() => Model.toJSON("P", { id: 3 }));
delete Object.prototype.x;
Model.define("User", { id: "int", name: "string" });
const users = Model.convert("[User]", [{ id: 1, name: "a" }, { id: "2", name: "b" }]);
show(() => Model.toJSON("[User]", users));
show(() => Model.toJSON("{User}", { first: users[0] }));
show(() => Model.toJSON("[User]", [users[0], "x"]));
