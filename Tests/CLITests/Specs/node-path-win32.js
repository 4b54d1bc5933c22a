// path.win32: Windows roots (drive, UNC, a leading separator), both separators, and the component functions.
const { win32 } = require("node:path");
const shown = [
  win32.parse("C:\\dir\\file.tar.gz"), win32.parse("//server/share/a/b.txt"), win32.parse("/x/y"),
  win32.isAbsolute("C:\\x"), win32.isAbsolute("C:x"), win32.isAbsolute("\\\\server\\share"), win32.isAbsolute("x/y"),
  win32.basename("C:\\a\\b.txt", ".txt"), win32.dirname("C:\\a\\b"), win32.extname("a\\b.c"),
  win32.join("C:\\a", "..", "b/c"), win32.normalize("a/b\\..\\c\\"), win32.sep, win32.delimiter,
  require("node:path").win32 === require("node:path/win32"),
];
console.log(JSON.stringify(shown));
