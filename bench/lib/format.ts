/** A number as the result files give it: thousands separated, `digits` decimals ("21,682", "1,011.5"). */
export const grouped = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
