// Hand-written product families for the matching labelled set (generate-pairs.ts): each family is one
// kind of product of one brand, sold in several variants (flavour, colour, kind), sizes and packs; a
// product is one (variant, size, pack). Brands list the spellings stores use. Electronics families
// carry model numbers (one per model) and storage/screen sizes.

export interface Family {
  /** the product's noun, as stores write it (singular / plural forms) */
  nouns: string[];
  /** generic words some stores put first ("Bebida", "Smartphone") */
  generic?: string[];
  brand: string;
  brandSpellings: string[];
  /** extra name words that every store keeps ("Grado 1", "Galaxy") */
  line?: string;
  variants: string[][]; // each variant: its spellings (first Spanish)
  /** sizes: [amount, unit] with alternative spellings of the same amount */
  sizes: { spellings: string[] }[];
  packs?: number[];
  /** model numbers (electronics): each with its spellings */
  models?: string[][];
  /** the variant kind: what the trap changes */
  variantKind: 'flavor' | 'color' | 'kind';
  /** other brands making the same kind of product (the brand trap) */
  rivals: string[];
}

const L = (ml: number) =>
  ml >= 1000
    ? [`${ml / 1000} L`, `${ml} ml`, `${String(ml / 1000).replace('.', ',')} lt`, `${ml} cc`, `${ml / 1000}L`]
    : [`${ml} ml`, `${ml} cc`, `${ml}ml`, `${ml / 1000} L`.replace('.', ',')];
const G = (g: number) =>
  g >= 1000
    ? [`${g / 1000} kg`, `${g} g`, `${String(g / 1000).replace('.', ',')} kilo`, `${g} gr`, `${g / 1000}kg`]
    : [`${g} g`, `${g} gr`, `${g}g`, `${g} grs`, `${g / 1000} kg`.replace('.', ',')];
const GB = (n: number) => [`${n} GB`, `${n}GB`, `${n} gb`];
const IN = (n: number) => [`${n}"`, `${n} pulgadas`, `${n}''`, `${n} pulg`];
const U = (n: number) => [`${n} un`, `${n} unidades`, `x${n}`, `pack ${n}`];

export const FAMILIES: Family[] = [
  {
    nouns: ['Leche'],
    brand: 'Colun',
    brandSpellings: ['Colun', 'COLUN'],
    variants: [['Entera', 'entera'], ['Descremada'], ['Semidescremada'], ['Sin Lactosa', 'Deslactosada']],
    sizes: [{ spellings: L(1000) }, { spellings: L(200) }],
    packs: [1, 6, 12],
    variantKind: 'kind',
    rivals: ['Soprole', 'Loncoleche', 'Surlat'],
  },
  {
    nouns: ['Yogur', 'Yoghurt'],
    brand: 'Soprole',
    brandSpellings: ['Soprole', 'SOPROLE'],
    line: 'Batido',
    variants: [['Frutilla', 'Fresa'], ['Vainilla', 'Vanilla'], ['Chocolate'], ['Durazno', 'Melocotón']],
    sizes: [{ spellings: G(165) }, { spellings: G(1000) }],
    packs: [1, 4],
    variantKind: 'flavor',
    rivals: ['Colun', 'Danone', 'Nestlé'],
  },
  {
    nouns: ['Bebida', 'Gaseosa'],
    generic: ['Bebida'],
    brand: 'Coca-Cola',
    brandSpellings: ['Coca-Cola', 'Coca Cola', 'COCA COLA', 'CocaCola'],
    variants: [['Original'], ['Zero', 'Sin Azúcar'], ['Light']],
    sizes: [{ spellings: L(1500) }, { spellings: L(350) }, { spellings: L(3000) }],
    packs: [1, 6],
    variantKind: 'kind',
    rivals: ['Pepsi', 'Kem', 'Bilz'],
  },
  {
    nouns: ['Cerveza', 'Cervezas'],
    brand: 'Cristal',
    brandSpellings: ['Cristal', 'CRISTAL'],
    line: 'Lager',
    variants: [['Lata'], ['Botella']],
    sizes: [{ spellings: L(350) }, { spellings: L(470) }, { spellings: L(1000) }],
    packs: [1, 6, 12, 24],
    variantKind: 'kind',
    rivals: ['Escudo', 'Becker', 'Heineken'],
  },
  {
    nouns: ['Arroz'],
    brand: 'Tucapel',
    brandSpellings: ['Tucapel', 'TUCAPEL'],
    line: 'Grado 2',
    variants: [['Largo Ancho'], ['Integral'], ['Pregraneado']],
    sizes: [{ spellings: G(1000) }, { spellings: G(500) }, { spellings: G(5000) }],
    variantKind: 'kind',
    rivals: ['Miraflores', 'Banquete', 'Carozzi'],
  },
  {
    nouns: ['Fideos', 'Fideo', 'Pasta'],
    brand: 'Carozzi',
    brandSpellings: ['Carozzi', 'CAROZZI'],
    variants: [['Spaghetti 5', 'Spaghetti N°5'], ['Corbatas'], ['Tallarines'], ['Espirales']],
    sizes: [{ spellings: G(400) }, { spellings: G(1000) }],
    packs: [1, 5],
    variantKind: 'kind',
    rivals: ['Lucchetti', 'Don Vittorio', 'Talliani'],
  },
  {
    nouns: ['Galletas', 'Galleta'],
    brand: 'McKay',
    brandSpellings: ['McKay', 'Mc Kay', 'MCKAY', "McKay's"],
    line: 'Triton',
    variants: [['Vainilla'], ['Chocolate'], ['Frutilla'], ['Limón']],
    sizes: [{ spellings: G(126) }, { spellings: G(480) }],
    packs: [1, 3, 4],
    variantKind: 'flavor',
    rivals: ['Costa', 'Nestlé', 'Fruna'],
  },
  {
    nouns: ['Aceite', 'Aceite vegetal'],
    brand: 'Chef',
    brandSpellings: ['Chef', 'CHEF'],
    variants: [['Maravilla'], ['Vegetal'], ['Canola']],
    sizes: [{ spellings: L(1000) }, { spellings: L(900) }, { spellings: L(5000) }],
    variantKind: 'kind',
    rivals: ['Belmont', 'Natura', 'Miraflores'],
  },
  {
    nouns: ['Azúcar', 'Azucar'],
    brand: 'Iansa',
    brandSpellings: ['Iansa', 'IANSA'],
    variants: [['Granulada'], ['Flor'], ['Rubia']],
    sizes: [{ spellings: G(1000) }, { spellings: G(5000) }, { spellings: G(250) }],
    variantKind: 'kind',
    rivals: ['Lider', 'Cuisine & Co', 'Great Value'],
  },
  {
    nouns: ['Café', 'Cafe'],
    generic: ['Café instantáneo'],
    brand: 'Nescafé',
    brandSpellings: ['Nescafé', 'Nescafe', 'NESCAFE'],
    line: 'Tradición',
    variants: [['Original'], ['Descafeinado'], ['Intenso']],
    sizes: [{ spellings: G(170) }, { spellings: G(50) }, { spellings: G(400) }],
    variantKind: 'kind',
    rivals: ['Gold', 'Monterrey', 'Juan Valdez'],
  },
  {
    nouns: ['Atún', 'Atun'],
    brand: 'Van Camps',
    brandSpellings: ['Van Camps', "Van Camp's", 'VAN CAMPS'],
    line: 'Lomitos',
    variants: [
      ['En Agua', 'al agua'],
      ['En Aceite', 'al aceite'],
    ],
    sizes: [{ spellings: G(160) }, { spellings: G(184) }],
    packs: [1, 3, 4],
    variantKind: 'kind',
    rivals: ['Robinson Crusoe', 'San José', 'Angelmó'],
  },
  {
    nouns: ['Detergente', 'Detergente líquido'],
    brand: 'Omo',
    brandSpellings: ['Omo', 'OMO'],
    line: 'Matic',
    variants: [['Original'], ['Ropa Oscura'], ['Bebé']],
    sizes: [{ spellings: L(3000) }, { spellings: L(5000) }, { spellings: L(1500) }],
    variantKind: 'kind',
    rivals: ['Ariel', 'Drive', 'Popeye'],
  },
  {
    nouns: ['Shampoo', 'Champú'],
    brand: 'Head & Shoulders',
    brandSpellings: ['Head & Shoulders', 'Head and Shoulders', 'HEAD & SHOULDERS', 'Head&Shoulders'],
    variants: [['Limpieza Renovadora'], ['Manzana', 'Apple'], ['Menta', 'Mint'], ['Coco']],
    sizes: [{ spellings: L(375) }, { spellings: L(700) }, { spellings: L(180) }],
    packs: [1, 2],
    variantKind: 'flavor',
    rivals: ['Pantene', 'Sedal', 'Dove'],
  },
  {
    nouns: ['Papel Higiénico', 'Papel higienico'],
    brand: 'Confort',
    brandSpellings: ['Confort', 'CONFORT'],
    line: 'Doble Hoja',
    variants: [['Premium'], ['Regular'], ['Ultra']],
    sizes: [{ spellings: U(4) }, { spellings: U(12) }, { spellings: U(32) }],
    variantKind: 'kind',
    rivals: ['Noble', 'Elite', 'Favorita'],
  },
  {
    nouns: ['Pañales', 'Pañal'],
    brand: 'Huggies',
    brandSpellings: ['Huggies', 'HUGGIES'],
    line: 'Active Sec',
    variants: [['Talla G'], ['Talla M'], ['Talla XG'], ['Talla XXG']],
    sizes: [{ spellings: U(40) }, { spellings: U(80) }, { spellings: U(56) }],
    variantKind: 'kind',
    rivals: ['Pampers', 'Babysec', 'Cotidian'],
  },
  {
    nouns: ['Jugo', 'Néctar'],
    brand: 'Watts',
    brandSpellings: ['Watts', 'WATTS'],
    variants: [['Naranja', 'Orange'], ['Durazno'], ['Piña'], ['Manzana']],
    sizes: [{ spellings: L(1500) }, { spellings: L(200) }, { spellings: L(1000) }],
    packs: [1, 3, 6],
    variantKind: 'flavor',
    rivals: ['Andina', 'Vivo', 'Del Valle'],
  },
  {
    nouns: ['Mantequilla'],
    brand: 'Colun',
    brandSpellings: ['Colun', 'COLUN'],
    variants: [['Con Sal'], ['Sin Sal']],
    sizes: [{ spellings: G(250) }, { spellings: G(125) }, { spellings: G(500) }],
    variantKind: 'kind',
    rivals: ['Soprole', 'Calo', 'Anchor'],
  },
  {
    nouns: ['Té', 'Te'],
    generic: ['Infusión'],
    brand: 'Supremo',
    brandSpellings: ['Supremo', 'SUPREMO'],
    line: 'Ceylán',
    variants: [['Negro', 'Black'], ['Verde', 'Green'], ['Rojo']],
    sizes: [{ spellings: U(100) }, { spellings: U(20) }, { spellings: U(50) }],
    variantKind: 'color',
    rivals: ['Lipton', 'Club', 'Dilmah'],
  },
  {
    nouns: ['Chocolate'],
    brand: 'Nestlé',
    brandSpellings: ['Nestlé', 'Nestle', 'NESTLE'],
    line: 'Trencito',
    variants: [['Leche'], ['Almendras'], ['Blanco']],
    sizes: [{ spellings: G(150) }, { spellings: G(90) }, { spellings: G(30) }],
    packs: [1, 6],
    variantKind: 'kind',
    rivals: ['Costa', 'Arcor', 'Sahne-Nuss'],
  },
  {
    nouns: ['Papas fritas', 'Papas Fritas'],
    generic: ['Snack'],
    brand: "Lay's",
    brandSpellings: ["Lay's", 'Lays', 'LAYS', "LAY'S"],
    line: 'Corte Americano',
    variants: [['Original', 'Clásicas'], ['Queso', 'Cheese'], ['Jamón'], ['Picante']],
    sizes: [{ spellings: G(180) }, { spellings: G(380) }, { spellings: G(45) }],
    variantKind: 'flavor',
    rivals: ['Marco Polo', 'Kryzpo', 'Evercrisp'],
  },
  {
    nouns: ['Mayonesa'],
    brand: 'Hellmanns',
    brandSpellings: ["Hellmann's", 'Hellmanns', 'HELLMANNS'],
    variants: [['Original'], ['Light'], ['Limón', 'Lemon']],
    sizes: [{ spellings: G(1000) }, { spellings: G(372) }, { spellings: G(186) }],
    variantKind: 'kind',
    rivals: ['Kraft', 'JB', 'Traverso'],
  },
  {
    nouns: ['Harina'],
    brand: 'Selecta',
    brandSpellings: ['Selecta', 'SELECTA'],
    variants: [['Sin Polvos'], ['Con Polvos'], ['Integral']],
    sizes: [{ spellings: G(1000) }, { spellings: G(5000) }, { spellings: G(25000) }],
    variantKind: 'kind',
    rivals: ['Collico', 'Mont Blanc', 'Lider'],
  },
  {
    nouns: ['Cereal'],
    brand: 'Kellogg’s',
    brandSpellings: ["Kellogg's", 'Kelloggs', 'KELLOGGS'],
    line: 'Zucaritas',
    variants: [['Original'], ['Chocolate'], ['Frutilla']],
    sizes: [{ spellings: G(730) }, { spellings: G(300) }, { spellings: G(500) }],
    variantKind: 'flavor',
    rivals: ['Nestlé', 'Costa', 'Quaker'],
  },
  {
    nouns: ['Jabón', 'Jabon'],
    generic: ['Jabón de tocador'],
    brand: 'Dove',
    brandSpellings: ['Dove', 'DOVE'],
    variants: [['Original'], ['Coco'], ['Pepino']],
    sizes: [{ spellings: G(90) }, { spellings: G(125) }],
    packs: [1, 3, 6],
    variantKind: 'kind',
    rivals: ['Lux', 'Nivea', 'Le Sancy'],
  },
  {
    nouns: ['Pasta dental', 'Crema dental'],
    brand: 'Colgate',
    brandSpellings: ['Colgate', 'COLGATE'],
    line: 'Total 12',
    variants: [['Clean Mint', 'Menta'], ['Blanqueadora'], ['Encías']],
    sizes: [{ spellings: L(90) }, { spellings: L(150) }],
    packs: [1, 2, 3],
    variantKind: 'kind',
    rivals: ['Pepsodent', 'Oral-B', 'Sensodyne'],
  },
  {
    nouns: ['Vino', 'Vino tinto'],
    brand: 'Casillero del Diablo',
    brandSpellings: ['Casillero del Diablo', 'CASILLERO DEL DIABLO', 'Concha y Toro Casillero del Diablo'],
    variants: [['Cabernet Sauvignon'], ['Merlot'], ['Carmenere', 'Carménère'], ['Sauvignon Blanc']],
    sizes: [{ spellings: L(750) }, { spellings: L(1500) }, { spellings: L(375) }],
    packs: [1, 6],
    variantKind: 'kind',
    rivals: ['Santa Rita 120', 'Gato', 'Casa Subercaseaux'],
  },
  // electronics
  {
    nouns: ['Smartphone', 'Celular'],
    generic: ['Teléfono'],
    brand: 'Samsung',
    brandSpellings: ['Samsung', 'SAMSUNG', 'Samsung Electronics'],
    line: 'Galaxy',
    variants: [
      ['Negro', 'Black'],
      ['Blanco', 'White'],
      ['Azul', 'Blue'],
      ['Verde', 'Green'],
    ],
    sizes: [{ spellings: GB(128) }, { spellings: GB(256) }],
    models: [['A54', 'A54 5G'], ['A34', 'A34 5G'], ['A15'], ['S23']],
    variantKind: 'color',
    rivals: ['Motorola', 'Xiaomi', 'Honor'],
  },
  {
    nouns: ['Smartphone', 'Celular'],
    brand: 'Xiaomi',
    brandSpellings: ['Xiaomi', 'XIAOMI', 'Xiaomi Mi'],
    line: 'Redmi Note',
    variants: [
      ['Negro', 'Black'],
      ['Azul', 'Blue'],
      ['Verde', 'Green'],
    ],
    sizes: [{ spellings: GB(128) }, { spellings: GB(256) }],
    models: [['13'], ['12'], ['13 Pro']],
    variantKind: 'color',
    rivals: ['Samsung', 'Motorola', 'Realme'],
  },
  {
    nouns: ['Smart TV', 'Televisor'],
    generic: ['TV'],
    brand: 'LG',
    brandSpellings: ['LG', 'LG Electronics'],
    line: 'UHD 4K',
    variants: [['Negro']],
    sizes: [{ spellings: IN(55) }, { spellings: IN(65) }, { spellings: IN(43) }],
    models: [
      ['55UR8750PSA', '55UR8750'],
      ['65UR8750PSA', '65UR8750'],
      ['43UR8750PSA', '43UR8750'],
    ],
    variantKind: 'color',
    rivals: ['Samsung', 'TCL', 'Hisense'],
  },
  {
    nouns: ['Notebook', 'Laptop'],
    brand: 'HP',
    brandSpellings: ['HP', 'Hewlett Packard', 'hp'],
    line: 'Pavilion',
    variants: [
      ['Plateado', 'Silver'],
      ['Azul', 'Blue'],
    ],
    sizes: [{ spellings: GB(512) }, { spellings: GB(256) }],
    models: [
      ['15-EG3001LA', '15 EG3001LA'],
      ['14-DV2050LA', '14 DV2050LA'],
    ],
    variantKind: 'color',
    rivals: ['Lenovo', 'Asus', 'Dell'],
  },
  {
    nouns: ['Audífonos', 'Audifonos', 'Auriculares'],
    brand: 'Sony',
    brandSpellings: ['Sony', 'SONY'],
    line: 'Inalámbricos',
    variants: [
      ['Negro', 'Black'],
      ['Blanco', 'White'],
      ['Azul', 'Blue'],
    ],
    sizes: [{ spellings: [''] }],
    models: [
      ['WH-1000XM5', 'WH1000XM5'],
      ['WH-CH520', 'WHCH520'],
      ['WF-C700N', 'WFC700N'],
    ],
    variantKind: 'color',
    rivals: ['JBL', 'Xiaomi', 'Bose'],
  },
  {
    nouns: ['Refrigerador', 'Refrigerador No Frost'],
    brand: 'Mademsa',
    brandSpellings: ['Mademsa', 'MADEMSA'],
    variants: [['Blanco', 'White'], ['Gris', 'Gray'], ['Grafito']],
    sizes: [{ spellings: ['250 L', '250 litros', '250L'] }, { spellings: ['320 L', '320 litros', '320L'] }],
    models: [['Altus 1250'], ['Altus 1350'], ['Nordik 415']],
    variantKind: 'color',
    rivals: ['Fensa', 'LG', 'Samsung'],
  },
];
