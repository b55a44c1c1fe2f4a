/**
 * The seed project the offline demo opens in (paths relative to /workspace). The demo tape
 * (`public/demos/tour.json`) talks about these exact files and the output its commands print
 * over them, so a change here needs the tape's texts checked too (the provider tests run every
 * tape command over these files).
 */
export const DEMO_WORKSPACE_FILES: Record<string, string> = {
  'README.md': `# city-greeter

A tiny Node.js CLI that greets the world's biggest cities.

    npm start            # greet every city
    npm start -- Tokyo   # greet one city

- \`src/greet.js\`: builds the greeting for one city
- \`src/index.js\`: reads the CSV and prints one greeting per row
- \`data/cities.csv\`: name, country, population (approximate 2023 metro estimates)

No dependencies. There are no tests yet.
`,
  'package.json': `{
  "name": "city-greeter",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "start": "node src/index.js",
    "test": "node --test src/"
  }
}
`,
  'src/greet.js': `/** Formats a population like 37194000 as "37.2 million". */
export function formatPopulation(n) {
  if (n >= 1e6) return \`\${(n / 1e6).toFixed(1)} million\`
  return n.toLocaleString('en-US')
}

/** Builds the greeting for one city row. */
export function greet({ name, country, population }) {
  return \`Hello, \${name} (\${country}), home to \${formatPopulation(population)} people!\`
}
`,
  'src/index.js': `import { readFileSync } from 'node:fs'
import { greet } from './greet.js'

const csv = readFileSync(new URL('../data/cities.csv', import.meta.url), 'utf8')
const [header, ...rows] = csv.trim().split('\\n')
const keys = header.split(',')
const only = process.argv[2]

for (const row of rows) {
  const values = row.split(',')
  const city = Object.fromEntries(keys.map((key, i) => [key, values[i]]))
  if (!only || city.name === only) console.log(greet({ ...city, population: Number(city.population) }))
}
`,
  'data/cities.csv': `name,country,population
Tokyo,Japan,37194000
Delhi,India,32941000
Shanghai,China,29210000
Dhaka,Bangladesh,23210000
Sao Paulo,Brazil,22620000
Cairo,Egypt,22183000
Mexico City,Mexico,22085000
Beijing,China,21766000
Mumbai,India,21297000
Chongqing,China,17341000
Kolkata,India,15333000
Guangzhou,China,14284000
`,
}
