// keyword_missing: the target keyword in none of the title, the first paragraph and the headings, or an article with no visible text at all.
import type { Check } from './check-context.js';
import { containsKeyword, keywordPattern } from './keyword-match.js';

export const keywordCheck: Check = ({ article, reading, words }) => {
  const keyword = article.request.targetKeyword;
  // Nothing to read: the title is then the pipeline's (the keyword, when the service gave none), not the writer's.
  if (words === 0) return [{ code: 'keyword_missing', message: `the article has no visible text, so nothing of it uses the keyword "${keyword}"; regenerate it` }];
  const pattern = keywordPattern(keyword);
  const firstParagraph = reading.blocks.find((block) => block.kind === 'text' && block.tag === 'p' && !block.code);
  const inTitle = containsKeyword(article.title, pattern);
  const inParagraph = firstParagraph !== undefined && containsKeyword(firstParagraph.text, pattern);
  const inHeading = reading.blocks.some((block) => block.kind === 'heading' && containsKeyword(block.text, pattern));
  if (inTitle || inParagraph || inHeading) return [];
  const paragraph = firstParagraph === undefined ? 'there is no first paragraph' : 'the first paragraph';
  return [
    {
      code: 'keyword_missing',
      message: `the keyword "${keyword}" is missing from the title "${article.title}", ${paragraph === 'the first paragraph' ? 'the first paragraph' : `the first paragraph (${paragraph})`} and every heading; edit the article to use it, or regenerate it`,
    },
  ];
};
