console.log("this line never runs: the file does not compile");
let x = 1;
let y = ;
