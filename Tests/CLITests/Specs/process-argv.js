// process.argv: [binary, absolute script path, ...arguments after the script], flags included verbatim.
console.log(process.argv[0]);
console.log(process.argv[1]);
console.log(JSON.stringify(process.argv.slice(2)));
console.log(process.argv[1] === __filename, require.main === module);
