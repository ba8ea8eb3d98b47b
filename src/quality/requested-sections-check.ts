// faq_missing, key_takeaways_missing, conclusion_present: the sections the request turns on or off, found by their headings.
import type { Check } from './check-context.js';
import type { Observation } from './finding.js';
import { isConclusionHeading, isFaqHeading, isKeyTakeawaysHeading } from './section-headings.js';

export const requestedSectionsCheck: Check = ({ article, reading }) => {
  const { request } = article;
  const headings = reading.blocks.flatMap((block) => (block.kind === 'heading' ? [block.text] : []));
  const found: Observation[] = [];
  if (request.includeFaq && !headings.some(isFaqHeading)) {
    found.push({
      code: 'faq_missing',
      message: 'includeFaq was asked for but the article has no FAQ heading ("Frequently Asked Questions", "FAQ", …); regenerate it, or edit it to add a FAQ, or set includeFaq: false',
    });
  }
  // The spec's key takeaways are a version of the introduction: no introduction, no takeaways.
  if (request.articleType === 'blog_post' && request.includeKeyTakeaways && request.disableIntroduction !== true && !headings.some(isKeyTakeawaysHeading)) {
    found.push({
      code: 'key_takeaways_missing',
      message: 'includeKeyTakeaways was asked for but the article has no Key Takeaways heading; regenerate it, or edit it to add them, or set includeKeyTakeaways: false',
    });
  }
  if (request.articleType === 'blog_post' && request.disableConclusion === true) {
    const conclusion = headings.find(isConclusionHeading);
    if (conclusion !== undefined) {
      found.push({
        code: 'conclusion_present',
        message: `disableConclusion was asked for but the article has a conclusion ("${conclusion}"); edit it to remove that section, or regenerate it`,
      });
    }
  }
  return found;
};
