// `performance`: High Resolution Time's clock, from the runtime's start (timeOrigin) on.

const { DateNow } = internal.primordials;

const timeOrigin = internal.now();
const performance = {
  timeOrigin: DateNow(),
  now() { return internal.now() - timeOrigin; },
  toJSON() { return { timeOrigin: this.timeOrigin }; },
};

internal.defineGlobal("performance", performance);
