// A broad sample of article requests, the way site owners type keywords: listicles with counts, places, comparisons, questions, roundups, long-tail.
import type { ArticleRequestInput } from '../../src/contract/request-schema.js';

const LIST_SUBJECTS = ['hiking trails', 'coffee grinders', 'budget laptops', 'houseplants for low light', 'board games for families', 'podcasts about history', 'road trip snacks', 'sci-fi novels', 'yoga poses for beginners', 'apps for learning spanish'];
const COUNTS = ['7', '10', '5', 'ten', 'three', 'twelve', '15', 'twenty', '25', '3'];
const LIST_FORMS = [(n: string, s: string) => `best ${n} ${s}`, (n: string, s: string) => `${n} best ${s}`, (n: string, s: string) => `top ${n} ${s}`, (n: string, s: string) => `${n} ${s} to try this year`];

const PLACES = ['coffee shops', 'pizza places', 'ramen restaurants', 'bookstores', 'rooftop bars', 'parks', 'museums', 'bakeries'];
const CITIES = ['berlin', 'new york', 'lyon', 'san francisco', 'tokyo', 'mexico city', 'austin', 'rio de janeiro'];
const PLACE_FORMS = [(p: string, c: string) => `best ${p} in ${c}`, (p: string, c: string) => `${p} near ${c}`, (p: string, c: string) => `cheap ${p} in ${c}`];

const VERSUS = ['french press vs pour over', 'react vs vue', 'iphone 15 vs pixel 8', 'kindle vs kobo', 'heat pump vs furnace', 'roth ira vs traditional ira', 'espresso vs cold brew', 'yoga vs pilates', 'python vs javascript for beginners', 'electric car vs hybrid'];

const QUESTIONS = [
  'what is a heat pump', 'how do solar panels work', 'why is my sourdough dense', 'can dogs eat grapes', 'is coffee bad for you', 'how long to boil eggs',
  'how to brew pour over coffee', 'what is the best time to visit iceland', 'how much water should i drink a day', 'why do cats purr', 'when to plant tomatoes',
  'how to train for a marathon', 'what does an ergonomic chair do', 'is it worth buying an electric bike', 'how to clean a cast iron skillet', 'where to buy fresh yeast',
  'how many calories in an avocado', 'should i repair or replace my dishwasher', 'does creatine cause hair loss', 'how to start a vegetable garden',
];

const ROUNDUP_SUBJECTS = ['running shoes', 'wireless earbuds under 100', 'air fryers', 'standing desks', 'electric toothbrushes', 'camping tents', 'mechanical keyboards', 'robot vacuums for pet hair', 'travel backpacks', 'espresso machines'];
const ROUNDUP_FORMS = [(s: string) => `best ${s}`, (s: string) => `top rated ${s}`, (s: string) => `${s}`, (s: string) => `best ${s} 2024`];

const LONG_TAIL = [
  'how to clean a cast iron skillet without soap', 'best time of year to visit iceland for northern lights', 'gluten free sourdough bread recipe for beginners',
  'what to pack for a week long hiking trip in the alps', 'easy vegetarian meal prep ideas for busy weeknights', 'how to keep basil alive indoors in winter',
  'beginner guide to investing in index funds', 'pour over coffee ratio', 'sourdough starter', 'composting in a small apartment', 'home office ergonomics',
  'dog friendly hiking trails near seattle', 'natural remedies for seasonal allergies', 'budget travel tips for southeast asia', 'zero waste kitchen swaps',
  'how to negotiate a higher salary', 'baratza encore review', 'kindle paperwhite review', 'best way to learn guitar as an adult', 'signs your car battery is dying',
];

const REVIEWS = ['baratza encore review', 'kindle paperwhite review', 'dyson v15 review', 'sony wh-1000xm5 review', 'instant pot duo review'];

/** About 230 requests: each family of keyword with the article types it is written as. */
export function keywordSample(): ArticleRequestInput[] {
  const requests: ArticleRequestInput[] = [];
  LIST_SUBJECTS.forEach((subject, i) => {
    for (let f = 0; f < LIST_FORMS.length; f++) {
      const keyword = LIST_FORMS[f]!(COUNTS[(i + f) % COUNTS.length]!, subject);
      requests.push({ targetKeyword: keyword, articleType: 'listicle' });
      if (f === 0) requests.push({ targetKeyword: keyword, articleLength: 'short' });
    }
    requests.push({ targetKeyword: `best ${subject}`, articleType: 'listicle', enableAutomaticLength: false, numberOfItems: 4 + (i % 6) });
  });
  PLACES.forEach((place, i) => {
    for (let f = 0; f < PLACE_FORMS.length; f++) {
      const keyword = PLACE_FORMS[f]!(place, CITIES[(i + f) % CITIES.length]!);
      requests.push({ targetKeyword: keyword, articleType: 'local_places_roundup' });
      if (f === 0) requests.push({ targetKeyword: keyword, articleType: 'listicle' }, { targetKeyword: keyword, articleLength: 'shorter' });
    }
    requests.push({ targetKeyword: `${COUNTS[i]} best ${place} in ${CITIES[i]}`, articleType: 'local_places_roundup' });
  });
  for (const keyword of VERSUS) requests.push({ targetKeyword: keyword, articleLength: 'short' }, { targetKeyword: keyword, articleType: 'rewrite_blog_post' });
  QUESTIONS.forEach((keyword, i) => requests.push({ targetKeyword: keyword, articleLength: i % 2 === 0 ? 'shorter' : 'medium', includeFaq: i % 3 === 0 }, ...(i % 4 === 0 ? [{ targetKeyword: keyword, articleType: 'video_article' as const }] : [])));
  ROUNDUP_SUBJECTS.forEach((subject, i) => {
    for (const form of ROUNDUP_FORMS) requests.push({ targetKeyword: form(subject), articleType: 'retail_product_roundup', numRetailProducts: 3 + (i % 8) });
  });
  for (const keyword of LONG_TAIL) requests.push({ targetKeyword: keyword, articleLength: 'shorter', autoPolish: keyword.length % 2 === 0 });
  for (const keyword of REVIEWS) requests.push({ targetKeyword: keyword, articleType: 'retail_single_product_review' });
  // A title of the request's own that leaves the keyword out: the first paragraph says it.
  requests.push(
    { targetKeyword: 'sourdough starter', title: 'A Loaf a Day' },
    { targetKeyword: 'best hiking boots', title: 'Boots We Wore Out', disableIntroduction: true, articleLength: 'shorter' },
    { targetKeyword: 'best 5 espresso machines', articleType: 'listicle', title: 'Morning Machines' },
    { targetKeyword: 'beste cafés in berlin', language: 'German', articleType: 'local_places_roundup' },
    { targetKeyword: 'mejores libros de ciencia ficción', language: 'Spanish', articleLength: 'short' },
    { targetKeyword: 'meilleurs croissants à paris', language: 'French', articleType: 'listicle' },
  );
  return requests;
}
