console.log("start");
throw "a plain string";
