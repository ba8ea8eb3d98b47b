// The headings that name a FAQ, key takeaways or a conclusion, in the languages the service writes most.

const word = (alternatives: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'iu');

/** Headings of a FAQ section. */
export const FAQ_HEADING = word(
  [
    'faqs?', 'frequently asked questions', 'common questions', 'questions and answers', 'q ?& ?a',
    'häufig gestellte fragen', 'häufige fragen', 'preguntas frecuentes', 'questions fréquentes', 'foire aux questions',
    'domande frequenti', 'perguntas frequentes', 'veelgestelde vragen', 'najczęściej zadawane pytania',
  ].join('|'),
);
const FAQ_CJK = /よくある質問|常见问题|常見問題|자주 묻는 질문/u;

/** Headings of a key takeaways section. */
export const KEY_TAKEAWAYS_HEADING = word(
  [
    'key takeaways?', 'takeaways', 'key points', 'tl;? ?dr', 'das wichtigste in kürze', 'das wichtigste auf einen blick', 'wichtigste punkte',
    'puntos clave', 'conclusiones clave', 'les points essentiels', 'points clés', 'à retenir', 'punti chiave', 'pontos-chave',
    'principais conclusões', 'belangrijkste punten',
  ].join('|'),
);
const KEY_TAKEAWAYS_CJK = /要点|ポイント|要点总结|핵심 요약/u;

/** Headings of a conclusion. */
export const CONCLUSION_HEADING = word(
  [
    'conclusion', 'in conclusion', 'final thoughts', 'wrapping up', 'wrap-up', 'the bottom line', 'bottom line', 'final verdict',
    'fazit', 'schlussfolgerung', 'schlusswort', 'conclusión', 'conclusiones', 'en conclusion', 'pour conclure', 'conclusione',
    'conclusão', 'conclusie', 'tot slot',
  ].join('|'),
);
const CONCLUSION_CJK = /まとめ|結論|结论|总结|결론/u;

export function isFaqHeading(text: string): boolean {
  return FAQ_HEADING.test(text) || FAQ_CJK.test(text);
}

export function isKeyTakeawaysHeading(text: string): boolean {
  return KEY_TAKEAWAYS_HEADING.test(text) || KEY_TAKEAWAYS_CJK.test(text);
}

/** A conclusion heading that is not a key takeaways heading ("Conclusiones clave" is Spanish for key takeaways). */
export function isConclusionHeading(text: string): boolean {
  return !isKeyTakeawaysHeading(text) && (CONCLUSION_HEADING.test(text) || CONCLUSION_CJK.test(text));
}
