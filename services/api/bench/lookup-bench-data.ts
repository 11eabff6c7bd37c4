// Generated high schools and queries for lookup-bench.ts (deterministic: same data every run).
import { randomBytes } from 'node:crypto';
import type { ImportRow } from '../src/modules/lookup/lookup-import';

export const SCHOOLS = 100_000;
export const QUERIES = 400;
export const WARM_UP = 40;

// A small deterministic generator, so every run searches the same data.
let seed = 20_261_122;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const FIRST = [
  'Abraham',
  'Lincoln',
  'Washington',
  'Jefferson',
  'Roosevelt',
  'Kennedy',
  'Martin Luther King',
  'César Chávez',
  'José Martí',
  'Sojourner Truth',
  'Harriet Tubman',
  'Thomas Edison',
  'Saint Mary',
  'Sainte-Thérèse',
  'Our Lady of Grace',
  'Mount Pleasant',
  'Green Valley',
  'Oak Ridge',
  'Cedar',
  'Maple',
  'Riverside',
  'Lakeview',
  'Hillcrest',
  'Northfield',
  'Southwood',
  'Eastlake',
  'Westbrook',
  'Pine',
  'Desert',
  'Prairie',
  'Coastal',
  'Valley',
  'Summit',
  'Canyon',
  'Bayside',
  'Harbor',
  "O'Connor",
  'McKinley',
  'Franklin',
  'Madison',
  'Monroe',
  'Adams',
  'Jackson',
  'Ørsted',
  'Müller',
];
const MIDDLE = [
  '',
  '',
  '',
  'Central',
  'North',
  'South',
  'East',
  'West',
  'Memorial',
  'Regional',
  'Magnet',
];
const KIND = [
  'High School',
  'Senior High School',
  'Academy',
  'Preparatory School',
  'Charter School',
  'Catholic High School',
  'Christian Academy',
  'School of the Arts',
  'Early College High School',
  'STEM Academy',
  'Community School',
];
const CITIES = [
  'Springfield',
  'Riverside',
  'Franklin',
  'Greenville',
  'Clinton',
  'Fairview',
  'Salem',
];
const STATES = ['IL', 'CA', 'TX', 'NY', 'FL', 'OH', 'PA', 'GA', 'NC', 'MI'];

export function generateSchools(): ImportRow[] {
  const rows: ImportRow[] = [];
  const used = new Set<string>();
  for (let i = 0; rows.length < SCHOOLS; i++) {
    const city = pick(CITIES);
    let name = [pick(FIRST), pick(MIDDLE), pick(KIND)].filter(Boolean).join(' ');
    if (used.has(name)) name = `${name} of ${city} ${i}`;
    used.add(name);
    const code = String(100_000 + i);
    rows.push({
      line: i + 2,
      values: {
        code,
        name,
        street: `${i} Main Street`,
        city,
        state: pick(STATES),
        zip: '62701',
        country: 'USA',
      },
    });
  }
  return rows;
}

/** What applicants type: beginnings of names, a word from the middle, typos, and misses. */
export function generateQueries(rows: readonly ImportRow[]): { kind: string; text: string }[] {
  const queries: { kind: string; text: string }[] = [];
  for (let i = 0; i < QUERIES + WARM_UP; i++) {
    const name = pick(rows).values.name ?? '';
    const r = random();
    if (r < 0.4) {
      queries.push({ kind: 'prefix', text: name.slice(0, 1 + Math.floor(random() * 12)) });
    } else if (r < 0.7) {
      const words = name.split(' ');
      const from = words.slice(1 + Math.floor(random() * (words.length - 1))).join(' ');
      queries.push({ kind: 'word', text: from.slice(0, 3 + Math.floor(random() * 8)) });
    } else if (r < 0.9) {
      const at = 2 + Math.floor(random() * Math.max(1, Math.min(name.length, 12) - 3));
      const typo = name.slice(0, at) + name.slice(at + 1, Math.min(name.length, 16));
      queries.push({ kind: 'typo', text: typo });
    } else {
      queries.push({ kind: 'miss', text: randomBytes(3).toString('hex').replace(/\d/g, 'q') });
    }
  }
  return queries;
}
