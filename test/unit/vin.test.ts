import { describe, expect, it } from "vitest";
import { decodeVin, vinCheckDigit, vinProblem } from "@/server/vehicles/vin";

// Position 9 set to the check digit the other 16 characters call for.
const withCheckDigit = (vin: string) => `${vin.slice(0, 8)}${vinCheckDigit(vin)}${vin.slice(9)}`;
const on = (iso: string) => new Date(iso);
const JUNE_2026 = on("2026-06-15T12:00:00Z");

describe("vinCheckDigit", () => {
  it("computes ISO 3779 check digits, with remainder 10 as X", () => {
    expect(vinCheckDigit("1HGCM82633A004352")).toBe("3");
    expect(vinCheckDigit("KM8K2CAB4PU001140")).toBe("4");
    expect(vinCheckDigit("SAJWA0FS8FPU12345")).toBe("8");
    expect(vinCheckDigit("2C3CDXBG0KH123456")).toBe("X");
  });
});

describe("vinProblem", () => {
  it("accepts real North American VINs whose check digit matches", () => {
    expect(vinProblem("1HGCM82633A004352")).toBeNull(); // 2003 Honda Accord
    expect(vinProblem("KM8K2CAB4PU001140")).toBeNull(); // 2023 Hyundai Kona
    expect(vinProblem("5YJ3E1EA2KF317000")).toBeNull(); // Tesla Model 3, check digit corrected
    expect(vinProblem("1FTFW1ET9DFC10312")).toBeNull(); // Ford F-150, check digit corrected
  });

  it("rejects a VIN that is not 17 characters long", () => {
    expect(vinProblem("1HGCM82633A00435")).toMatch(/17 characters/);
    expect(vinProblem("1HGCM82633A0043521")).toMatch(/17 characters/);
    expect(vinProblem("")).toMatch(/17 characters/);
  });

  it("rejects the letters I, O and Q and any other character outside A–Z and 0–9", () => {
    expect(vinProblem("1HGCM82633A00435I")).toMatch(/I, O and Q/);
    expect(vinProblem("1HGCM8263OA004352")).toMatch(/I, O and Q/);
    expect(vinProblem("QHGCM82633A004352")).toMatch(/I, O and Q/);
    expect(vinProblem("1HGCM82633A-04352")).toMatch(/I, O and Q/);
    expect(vinProblem("1hgcm82633a004352")).toMatch(/I, O and Q/);
  });

  it("rejects a North American VIN with a wrong check digit", () => {
    expect(vinProblem("1HGCM82643A004352")).toMatch(/check digit/);
    // Widely quoted examples whose check digits do not match (the right ones are 2 and 9).
    expect(vinProblem("5YJ3E1EA7KF317000")).toMatch(/check digit/);
    expect(vinProblem("1FTFW1ET5DFC10312")).toMatch(/check digit/);
  });

  it("holds the US's newer 7F–7Z WMIs to the check digit too", () => {
    const vin = withCheckDigit("7SAYGDEE0NF123456"); // Tesla Model Y
    expect(vinProblem(vin)).toBeNull();
    expect(vinProblem(`${vin.slice(0, 8)}${vin[8] === "1" ? "2" : "1"}${vin.slice(9)}`)).toMatch(/check digit/);
  });

  it("rejects a Chinese VIN with a wrong check digit", () => {
    const vin = withCheckDigit("LRW3E7EA0LC123456");
    expect(vinProblem(vin)).toBeNull();
    expect(vinProblem(`${vin.slice(0, 8)}${vin[8] === "1" ? "2" : "1"}${vin.slice(9)}`)).toMatch(/check digit/);
  });

  it("accepts European and Japanese VINs without a check digit", () => {
    expect(vinProblem("WVWZZZ1JZXW000001")).toBeNull(); // VW fills unused positions with Z
    expect(vinProblem("WBA3A5C51CF256985")).toBeNull(); // BMW, position 9 not a check digit
    expect(vinProblem("JTDKB20U093123456")).toBeNull();
  });

  it("rejects a North American VIN whose 10th character is not a model-year code", () => {
    for (const code of ["U", "Z", "0"]) {
      const vin = withCheckDigit(`1HGCM8263${code}A004352`);
      expect(vinProblem(vin)).toMatch(/model-year/);
    }
  });

  it("accepts a European VIN whose 10th character is not a year code (many encode no year)", () => {
    expect(vinProblem("WDB2030460A000000")).toBeNull();
  });
});

describe("decodeVin", () => {
  it("decodes year, make and model of real VINs", () => {
    expect(decodeVin("1HGCM82633A004352", JUNE_2026)).toEqual({ year: "2003", make: "Honda", model: "Accord" });
    expect(decodeVin("5YJ3E1EA7KF317000", JUNE_2026)).toEqual({ year: "2019", make: "Tesla", model: "Model 3" });
    expect(decodeVin("1FTFW1ET5DFC10312", JUNE_2026)).toEqual({ year: "2013", make: "Ford", model: "F-150" });
    expect(decodeVin("KM8K2CAB4PU001140", JUNE_2026)).toEqual({ year: "2023", make: "Hyundai", model: "Kona" });
    expect(decodeVin("WBA3A5C51CF256985", JUNE_2026)).toEqual({ year: "2012", make: "BMW", model: "328i" });
    // A European VIN with "ZZZ" as its descriptor: vPIC has no pattern for it.
    expect(decodeVin("WVWZZZ1JZXW000001", JUNE_2026)).toEqual({ year: "1999", make: "Volkswagen", model: null });
  });

  // Models as NHTSA vPIC's VIN patterns give them (checked against vPIC's tables with SQLite's
  // own GLOB matching, not with this decoder): each VIN's positions 4–8 fall in one of its model's
  // patterns for that WMI and year.
  it("decodes VINs with computed check digits across makers", () => {
    const cases: [string, string, string, string | null][] = [
      ["JTDKB20U093123456", "2009", "Toyota", "Prius"],
      ["JTHBK1GG0E2123456", "2014", "Lexus", "ES"],
      ["WDDGF4HB0EA123456", "2014", "Mercedes-Benz", "C-Class"],
      ["WAUZZZ8K0BA123456", "2011", "Audi", null],
      ["WP0AB2A90HS123456", "2017", "Porsche", "911"],
      ["JF2SJAAC0FH123456", "2015", "Subaru", "Forester"],
      ["JM1BM1V70E1123456", "2014", "Mazda", "Mazda3"],
      ["YV1A22MK0H1123456", "2017", "Volvo", "S90"],
      ["5NPE24AF0FH123456", "2015", "Hyundai", "Sonata"],
      ["KNDJN2A20F7123456", "2015", "Kia", "Soul"],
      ["1N4AL3AP0FC123456", "2015", "Nissan", "Altima"],
      ["1G1ZD5ST0JF123456", "2018", "Chevrolet", "Malibu"],
      ["1GTV2LEC0GZ123456", "2016", "GMC", "Sierra"],
      ["5GAKVCKD0EJ123456", "2014", "Buick", "Enclave"],
      ["1GYS4HKJ0FR123456", "2015", "Cadillac", "Escalade"],
      ["7SAYGDEE0NF123456", "2022", "Tesla", "Model Y"],
      ["VF1RFB00X56123456", "2005", "Renault", null],
      ["TMBJJ7NE0G0123456", "2016", "Škoda", null],
      ["2HGFC2F59KH123456", "2019", "Honda", "Civic"],
      ["1FTEW1EP7HKD12345", "2017", "Ford", "F-150"],
      ["4T1B11HK5LU123456", "2020", "Toyota", "Camry"],
      ["1FTBR1Y80LKA47219", "2020", "Ford", "Transit"],
    ];
    for (const [vin, year, make, model] of cases) {
      expect(decodeVin(withCheckDigit(vin), JUNE_2026), vin).toEqual({ year, make, model });
    }
  });

  it("reads the model by year: one descriptor names different models in different years", () => {
    // Honda's "FC2F5" is a Civic in 2019; in a year its schema does not cover, no model.
    expect(decodeVin(withCheckDigit("2HGFC2F50KH123456"), JUNE_2026).model).toBe("Civic");
    expect(decodeVin(withCheckDigit("2HGFC2F50AH123456"), JUNE_2026)).toEqual({
      year: "2010",
      make: "Honda",
      model: null,
    });
  });

  it("names the model's own make where a group's WMI carries several brands", () => {
    // JN8 is mostly Nissan's, KMH Hyundai's; vPIC files these models under Infiniti and Genesis.
    expect(decodeVin(withCheckDigit("JN8AZ2NE0J9123456"), JUNE_2026)).toEqual({
      year: "2018",
      make: "Infiniti",
      model: "QX80",
    });
    expect(decodeVin(withCheckDigit("KMHGN4JE0HU123456"), JUNE_2026)).toEqual({
      year: "2017",
      make: "Genesis",
      model: "G80",
    });
    // Without a model the WMI's make stands.
    expect(decodeVin(withCheckDigit("JN8ZZ99Z0J9123456"), JUNE_2026)).toEqual({
      year: "2018",
      make: "Nissan",
      model: null,
    });
  });

  it("leaves the model null when no pattern of the WMI and year matches", () => {
    expect(decodeVin(withCheckDigit("1HGZZ99903A004352"), JUNE_2026)).toEqual({
      year: "2003",
      make: "Honda",
      model: null,
    });
  });

  it("tells Stellantis brands apart by position 5 from 2011, and by WMI before", () => {
    expect(decodeVin(withCheckDigit("1C4RJFAG0FC123456"), JUNE_2026).make).toBe("Jeep");
    expect(decodeVin(withCheckDigit("1C6RR7LT0ES123456"), JUNE_2026).make).toBe("Ram");
    expect(decodeVin(withCheckDigit("2C3CDXBG0KH123456"), JUNE_2026).make).toBe("Dodge");
    expect(decodeVin(withCheckDigit("2C3CCAAG0FH123456"), JUNE_2026).make).toBe("Chrysler");
    expect(decodeVin(withCheckDigit("3C3CFFAR0DT123456"), JUNE_2026).make).toBe("Fiat");
    expect(decodeVin(withCheckDigit("1C3LC56R07N123456"), JUNE_2026)).toEqual({
      year: "2007",
      make: "Chrysler",
      model: "Sebring",
    });
    expect(decodeVin(withCheckDigit("1C6HH56208N123456"), JUNE_2026)).toEqual({
      year: "2008",
      make: null,
      model: null,
    });
  });

  it("leaves make null for an unknown WMI and for small makers' WMIs ending in 9", () => {
    expect(decodeVin("AAAZZZ11ZKA123456", JUNE_2026)).toEqual({ year: "2019", make: null, model: null });
    expect(decodeVin("YV2AG20A0HA123456", JUNE_2026).make).toBe("Volvo"); // Volvo owns the YV prefix
    expect(decodeVin("YV9AG20A0HA123456", JUNE_2026).make).toBeNull();
  });

  it("leaves year null when position 10 is not a year code, and everything null for a malformed VIN", () => {
    expect(decodeVin("WDB2030460A000000", JUNE_2026)).toEqual({ year: null, make: "Mercedes-Benz", model: null });
    expect(decodeVin("1HGCM82633A00435", JUNE_2026)).toEqual({ year: null, make: null, model: null });
  });

  describe("model year outside North America: the latest year at most one year ahead", () => {
    const yearOf = (code: string, now: Date) => decodeVin(`WBA3A5C51${code}F256985`, now).year;

    it("reads next year's code as next year, and the one after as 30 years earlier", () => {
      expect(yearOf("T", JUNE_2026)).toBe("2026");
      expect(yearOf("V", JUNE_2026)).toBe("2027");
      expect(yearOf("W", JUNE_2026)).toBe("1998");
    });

    it("moves to the new cycle at the turn of the year", () => {
      expect(yearOf("W", on("2026-12-31T23:59:59Z"))).toBe("1998");
      expect(yearOf("W", on("2027-01-01T00:00:00Z"))).toBe("2028");
    });

    it("reads A as 2010 and 9 as 2009 until 2039", () => {
      expect(yearOf("A", JUNE_2026)).toBe("2010");
      expect(yearOf("9", JUNE_2026)).toBe("2009");
      expect(yearOf("A", on("2039-01-01T00:00:00Z"))).toBe("2040");
      expect(yearOf("Y", on("2029-06-01T00:00:00Z"))).toBe("2030");
    });
  });

  describe("model year in North America: position 7 picks the cycle", () => {
    const na = (position7: string, position10: string) => withCheckDigit(`1HGCM8${position7}63${position10}A004352`);

    it("reads a digit at position 7 as 1980–2009 and a letter as 2010–2039", () => {
      expect(decodeVin(na("2", "A"), JUNE_2026).year).toBe("1980");
      expect(decodeVin(na("B", "A"), JUNE_2026).year).toBe("2010");
      expect(decodeVin(na("2", "9"), JUNE_2026).year).toBe("2009");
      expect(decodeVin(na("B", "V"), JUNE_2026).year).toBe("2027");
    });

    it("falls back to the latest past year when a letter at position 7 would give a future year", () => {
      expect(decodeVin(na("B", "W"), JUNE_2026).year).toBe("1998");
      expect(decodeVin(na("B", "5"), JUNE_2026).year).toBe("2005");
    });

    it("uses the current date when none is given", () => {
      expect(decodeVin("1HGCM82633A004352").year).toBe("2003");
    });
  });
});
