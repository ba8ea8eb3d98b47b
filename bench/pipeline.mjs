// Pipeline benchmark: processArticle vs bare rehype-parse → rehype-stringify on the same article, same run.
//
// Run: npm run build && npx node bench/pipeline.mjs   (BENCH_SECONDS=… to change the measuring time)
// As a module: `const { name, figures } = await run()` for a bench runner.

import os from 'node:os';
import { pathToFileURL } from 'node:url';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';

const TARGET_ARTICLES_PER_SECOND = 400;
const TARGET_RATIO = 1.2;

const PHRASES = [
  'espresso machine', 'burr grinder', 'milk frother', 'coffee beans', 'French press', 'pour over', 'cold brew',
  'latte art', 'water filter', 'descaling', 'tamper', 'portafilter', 'crema', 'single origin', 'dark roast',
  'light roast', 'grind size', 'brew ratio', 'AeroPress', 'moka pot', 'cappuccino', 'flat white', 'americano',
  'decaf', 'arabica', 'robusta', 'gooseneck kettle', 'coffee scale', 'extraction', 'bloom',
];

const SECTION_WORDS = ['beans', 'water', 'milk', 'grinding', 'roasting', 'brewing', 'storage', 'cleaning', 'travel', 'budget', 'gear', 'tasting'];

const SENTENCES = [
  'A good burr grinder matters more than most people expect, because grind size controls how fast water pulls flavour from the coffee.',
  'Freshly roasted coffee beans keep their aroma for about a month once the bag is opened, so buy small amounts often.',
  'If your shots taste sour, the extraction is probably too short and a finer grind size will help.',
  'Bitter, hollow cups usually mean the opposite: the water spent too long with grounds that were too fine.',
  'The portafilter should be warm before you dose it, otherwise the first seconds of the shot run cold.',
  'A calibrated tamper makes it easier to press the puck evenly, which prevents channelling.',
  'Thick, hazelnut-coloured crema is a sign of fresh beans, not automatically of a great shot.',
  'Light roast coffees show fruit and acidity, while a dark roast brings chocolate, caramel and smoke.',
  'Single origin lots are worth trying as filter coffee, where their character is easiest to taste.',
  'A brew ratio of one to sixteen is a sensible starting point for pour over and French press alike.',
  'Let the grounds bloom for thirty seconds so trapped carbon dioxide can escape before the main pour.',
  'A gooseneck kettle gives you control over the flow, which matters for an even pour over.',
  'Weigh everything with a coffee scale; scoops vary by as much as thirty percent between beans.',
  'The AeroPress forgives mistakes and travels well, which is why so many baristas keep one at home.',
  'A stovetop moka pot makes strong, concentrated coffee, but it is not true espresso.',
  'Cold brew needs a coarse grind and twelve to eighteen hours in the fridge.',
  'Hard water leaves scale inside the boiler, so regular descaling protects any espresso machine.',
  'A simple water filter jug already removes much of the chlorine taste from tap water.',
  'Steaming milk for a cappuccino takes more air than steaming for a flat white.',
  'Latte art depends on silky microfoam more than on a steady hand.',
  'A manual milk frother is cheap, but a steam wand gives far better texture.',
  'An americano is simply espresso topped up with hot water, and it is a fine way to taste a new blend.',
  'Good decaf has improved a lot, and the Swiss water process keeps most of the flavour.',
  'Most speciality coffee is arabica, while robusta adds body, bitterness and twice the caffeine.',
  'Clean the group head every week with a blind basket and a little detergent.',
  'Keep notes on dose, yield and time, because small changes add up quickly.',
  'Store your beans in an airtight container away from light, heat and moisture.',
  'A entry-level machine with a pressurised basket hides grinder problems, which is both a blessing and a limit.',
];

/** A ~20 KB article of ~2,800 words with 6 images and ~20 links, fixed by a seed. */
export function benchArticle() {
  let seed = 42;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const sections = ['Choosing beans', 'Grinding', 'Brewing methods', 'Espresso at home', 'Milk drinks', 'Water', 'Cleaning', 'Buying guide', 'Troubleshooting', 'Final thoughts'];
  let html = '<h1>How to Make Better Coffee at Home: The Complete Guide</h1>\n';
  html += `<p>${pick(SENTENCES)} ${pick(SENTENCES)} ${pick(SENTENCES)}</p>\n`;
  let links = 0;
  let images = 0;
  sections.forEach((title, s) => {
    html += `<h2>${title}</h2>\n`;
    for (let p = 0; p < 5; p++) {
      if (p === 3) html += `<h3>${title}: the details</h3>\n`;
      let paragraph = '';
      const sentences = 3 + (random() < 0.25 ? 1 : 0);
      for (let i = 0; i < sentences; i++) paragraph += pick(SENTENCES) + ' ';
      if (links < 20 && (p === 1 || p === 3)) {
        paragraph += `According to <a href="https://www.example-research.org/studies/${links}">this study</a>, taste is personal. `;
        links++;
      }
      html += `<p>${paragraph.trim()}</p>\n`;
    }
    if (images < 6 && s % 2 === (s < 2 ? s : 1)) {
      html += `<figure><img src="https://images.example-cdn.com/coffee/${images}.webp" alt=""><figcaption>${title} at a glance</figcaption></figure>\n`;
      images++;
    }
    if (s === 4) html += '<ul><li>Espresso: 18 g in, 36 g out, 28 seconds</li><li>Pour over: 15 g to 250 g water</li><li>French press: 30 g to 500 g water, 4 minutes</li></ul>\n';
    if (s === 7) html += '<table><thead><tr><th>Budget</th><th>Grinder</th><th>Machine</th></tr></thead><tbody><tr><td>Low</td><td>Hand grinder</td><td>Moka pot</td></tr><tr><td>Mid</td><td>Flat burrs</td><td>Single boiler</td></tr></tbody></table>\n';
  });
  return html;
}

export function benchLinkMap(buildLinkMap) {
  return buildLinkMap({ links: PHRASES.map((phrase, index) => ({ phrase, url: `/guides/${index}-${phrase.toLowerCase().replace(/\W+/g, '-')}/` })) });
}

async function measure(label, fn, milliseconds) {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < milliseconds) {
    for (let i = 0; i < 10; i++) await fn();
    count += 10;
    elapsed = performance.now() - start;
  }
  return { label, count, elapsed };
}

/** Measure and return the figures (no printing). */
export async function run({ seconds = Number(process.env.BENCH_SECONDS ?? 10) } = {}) {
  const pipeline = await import(new URL('../dist/pipeline/index.js', import.meta.url).href).catch((error) => {
    throw new Error(`bench/pipeline.mjs needs the compiled package: run \`npm run build\` first (${error.message})`);
  });
  const html = benchArticle();
  const links = benchLinkMap(pipeline.buildLinkMap);
  const context = { keyword: 'make better coffee at home', slug: 'better-coffee', url: '/articles/better-coffee/', imageSize: '1536x1024', links };
  const stock = unified().use(rehypeParse, { fragment: true }).use(rehypeStringify).freeze();
  const runPipeline = () => pipeline.processArticle(html, context);
  const runStock = () => stock.process(html);

  const sample = await runPipeline();
  const warmup = Math.min(1000, seconds * 100);
  await measure('warm-up', runPipeline, warmup);
  await measure('warm-up', runStock, warmup);

  // Many short interleaved rounds, so that a noisy neighbour hurts both sides alike; the ratio is
  // the median of the rounds' ratios, which one unlucky round cannot move.
  const rounds = Math.max(4, Math.round(seconds * 2));
  const slice = (seconds * 1000) / (rounds * 2);
  const totals = { pipeline: { count: 0, elapsed: 0 }, stock: { count: 0, elapsed: 0 } };
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const perRound = {};
    for (const [key, fn] of round % 2 === 0 ? [['pipeline', runPipeline], ['stock', runStock]] : [['stock', runStock], ['pipeline', runPipeline]]) {
      const result = await measure(key, fn, slice);
      totals[key].count += result.count;
      totals[key].elapsed += result.elapsed;
      perRound[key] = result.elapsed / result.count;
    }
    ratios.push(perRound.pipeline / perRound.stock);
  }
  ratios.sort((a, b) => a - b);
  const ratio = ratios[Math.floor(ratios.length / 2)];
  const pipelineRate = (totals.pipeline.count * 1000) / totals.pipeline.elapsed;
  const stockRate = (totals.stock.count * 1000) / totals.stock.elapsed;
  // Scale: a site of 1,000 articles gives every article a map of 2,000 phrases (keywords and titles).
  const siteArticles = Array.from({ length: 1000 }, (_, index) => ({
    slug: `article-${index}`,
    keyword: `${PHRASES[index % PHRASES.length]} ${SECTION_WORDS[index % SECTION_WORDS.length]} ${index}`,
    title: `${SECTION_WORDS[(index * 7) % SECTION_WORDS.length]} guide ${index}`,
  }));
  const compileStart = performance.now();
  const bigMap = pipeline.buildLinkMap({ articles: siteArticles, url: (slug) => `/articles/${slug}/` });
  await pipeline.processArticle(html, { ...context, links: bigMap });
  const compileMs = performance.now() - compileStart;
  const big = await measure('big map', () => pipeline.processArticle(html, { ...context, links: bigMap }), Math.min(2000, seconds * 200));
  const bigRate = (big.count * 1000) / big.elapsed;

  const words = sample.wordCount;
  return {
    name: 'pipeline',
    article: {
      bytes: Buffer.byteLength(html),
      words,
      images: sample.images.length,
      links: sample.links.length,
      insertedLinks: sample.links.filter((link) => link.source === 'local').length,
      phrases: links.entries.length,
    },
    figures: [
      { label: 'processArticle', value: round1(pipelineRate), unit: 'articles/s', target: `≥ ${TARGET_ARTICLES_PER_SECOND}`, ok: pipelineRate >= TARGET_ARTICLES_PER_SECOND },
      { label: 'stock rehype-parse → rehype-stringify', value: round1(stockRate), unit: 'articles/s' },
      { label: 'time ratio pipeline / stock (median)', value: Math.round(ratio * 100) / 100, unit: '×', target: `≤ ${TARGET_RATIO}`, ok: ratio <= TARGET_RATIO },
      { label: 'processArticle per article', value: Math.round((totals.pipeline.elapsed / totals.pipeline.count) * 1000) / 1000, unit: 'ms' },
      { label: 'stock per article', value: Math.round((totals.stock.elapsed / totals.stock.count) * 1000) / 1000, unit: 'ms' },
      { label: '2,000-phrase map: build + first article', value: Math.round(compileMs), unit: 'ms' },
      { label: 'processArticle with a 2,000-phrase map', value: round1(bigRate), unit: 'articles/s' },
    ],
  };
}

function round1(value) {
  return Math.round(value * 10) / 10;
}

async function main() {
  const result = await run();
  const { article } = result;
  console.log('Pipeline benchmark (one core, Node ' + process.versions.node + ')');
  console.log(
    `  article: ${(article.bytes / 1024).toFixed(1)} KB, ${article.words} words, ${article.images} images, ` +
      `${article.links} links out (${article.insertedLinks} inserted), ${article.phrases} link phrases`,
  );
  console.log('  stock = unified().use(rehype-parse, { fragment: true }).use(rehype-stringify), same article, interleaved rounds');
  console.log(`  load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} on ${os.availableParallelism()} cores`);
  for (const figure of result.figures) {
    const target = figure.target ? `  target ${figure.target}  ${figure.ok ? 'OK' : 'MISSED'}` : '';
    console.log(`  ${figure.label.padEnd(40)} ${String(figure.value).padStart(9)} ${figure.unit}${target}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
