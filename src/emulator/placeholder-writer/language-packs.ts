// Text templates the writer fills in, per language: headings, labels and sentence banks.
//
// Placeholders: {topic} (the keyword's subject), {Topic} (the same, capitalised for headings),
// {item}, {product}, {place}, {city}, {n}.

export type PointOfView = 'third_person' | 'first_person_singular' | 'first_person_plural' | 'second_person';

export interface LanguagePack {
  /** The language name as the request spells it. */
  name: string;
  /** Value of the html `lang` attribute. */
  htmlLang: string;
  sentenceEnd: string;
  /** Text between two sentences of a paragraph. */
  sentenceGap: string;
  /** Joins the two halves of a deliberately complex sentence. */
  complexJoiner: string;
  /** Whether headings use title case (English only). */
  titleCase: boolean;
  headings: {
    introduction: string;
    conclusion: string;
    faq: string;
    keyTakeaways: string;
    sources: string;
    pros: string;
    cons: string;
    verdict: string;
    specifications: string;
    comparison: string;
    keyMoments: string;
    howWeChose: string;
    summary: string;
    supplemental: string[];
  };
  labels: {
    price: string;
    rating: string;
    address: string;
    hours: string;
    phone: string;
    checkPrice: string;
    viewOnMap: string;
    watchVideo: string;
    basedOn: string;
    seeMoreProducts: string;
    feature: string;
    bestFor: string;
    product: string;
    place: string;
    productId: string;
  };
  titles: string[];
  sectionNames: string[];
  subsectionNames: string[];
  faqQuestions: string[];
  takeaways: string[];
  clauses: string[];
  simpleClauses: string[];
  povSentences: Record<PointOfView, string[]>;
  /** [passive sentence, the same in the active voice] */
  passive: [string, string][];
  /** Two sentences that the writer joins into one long one. */
  complex: [string, string][];
  /** [stiff sentence, the same said plainly] */
  formal: [string, string][];
  /** A paragraph opener that wraps things up in the middle of an article. */
  midConclusion: string;
  /** Sentence openers and endings combined with `clauses` so that sentences rarely repeat. */
  openers: string[];
  tails: string[];
  /** Titles per article type: {n} items, {Topic}, {product}, {city}. */
  listTitle: string;
  roundupTitle: string;
  reviewTitle: string;
  placesTitle: string;
  videoTitle: string;
  rewriteTitle: string;
  /** Titles led by the keyword itself, for a keyword the type's title would shorten ("top rated …", "… for beginners"): {Keyword}, {n}. */
  keywordTitles: { guide: string; list: string; review: string };
  /** Opens the first paragraph when the request's own title leaves the keyword out: {keyword}. */
  keywordSentence: string;
  itemSentences: string[];
  productSentences: string[];
  placeSentences: string[];
  videoSentences: string[];
  pros: string[];
  cons: string[];
  bestFor: string[];
}

const english: LanguagePack = {
  name: 'English',
  htmlLang: 'en',
  sentenceEnd: '.',
  sentenceGap: ' ',
  complexJoiner: '; ',
  titleCase: true,
  headings: {
    introduction: 'Introduction',
    conclusion: 'Conclusion',
    faq: 'Frequently Asked Questions',
    keyTakeaways: 'Key Takeaways',
    sources: 'Sources',
    pros: 'Pros',
    cons: 'Cons',
    verdict: 'Our Verdict',
    specifications: 'Specifications',
    comparison: 'Comparison at a Glance',
    keyMoments: 'Key Moments in the Video',
    howWeChose: 'How We Chose',
    summary: 'Summary',
    supplemental: ['Tips Before You Start', 'Common Mistakes to Avoid', 'What to Bring'],
  },
  labels: {
    price: 'Price',
    rating: 'Rating',
    address: 'Address',
    hours: 'Opening hours',
    phone: 'Phone',
    checkPrice: 'Check price',
    viewOnMap: 'View on map',
    watchVideo: 'Watch the video',
    basedOn: 'This article is a rewrite of',
    seeMoreProducts: 'See more products',
    feature: 'Feature',
    bestFor: 'Best for',
    product: 'Product',
    place: 'Place',
    productId: 'Product ID',
  },
  titles: [
    '{Topic}: The Complete Guide',
    'Everything You Need to Know About {Topic}',
    'The Ultimate Guide to {Topic}',
    '{Topic} Explained: A Practical Guide',
  ],
  sectionNames: [
    'What Is {Topic}?',
    'Why {Topic} Matters',
    'How to Get Started with {Topic}',
    'Choosing the Right Approach to {Topic}',
    'Common Mistakes with {Topic}',
    'Tools and Resources for {Topic}',
    'A Step-by-Step Plan for {Topic}',
    'Costs and Budgeting for {Topic}',
    'Advanced Tips for {Topic}',
    'Safety and Practical Considerations',
    'How {Topic} Has Changed Over Time',
    'Real-World Examples of {Topic}',
    'Measuring Success with {Topic}',
    'The Future of {Topic}',
  ],
  subsectionNames: ['The Basics', 'What the Experts Say', 'A Quick Checklist', 'Things to Watch Out For', 'Going Further'],
  faqQuestions: [
    'What is the best way to start with {topic}?',
    'How much does {topic} cost?',
    'Is {topic} suitable for beginners?',
    'How long does it take to see results with {topic}?',
    'What are the most common mistakes with {topic}?',
  ],
  takeaways: [
    'Start small with {topic} and build up gradually.',
    'Plan ahead: most problems with {topic} come from poor preparation.',
    'The right tools make {topic} easier and safer.',
    'Track your progress so you can see what works.',
    'Learn from others who have already mastered {topic}.',
  ],
  clauses: [
    '{topic} rewards careful preparation more than raw talent',
    'the details of {topic} matter more than most people expect',
    'a good plan turns {topic} from a chore into a pleasure',
    'small, consistent steps beat occasional bursts of effort',
    'the best results with {topic} come from understanding the basics first',
    'it pays to compare several options before committing to one',
    'weather, budget and time all shape how {topic} plays out',
    'experienced practitioners of {topic} keep their routines simple',
    'most of the cost of {topic} is decided in the first few choices',
    'the community around {topic} is generous with advice',
    'reliable information about {topic} is easy to find if you know where to look',
    'every season brings something new to {topic}',
    'patience is the most underrated skill in {topic}',
    'a checklist prevents the most common surprises',
    'quality usually beats quantity when it comes to {topic}',
    'the first attempt rarely goes perfectly, and that is fine',
  ],
  simpleClauses: [
    '{topic} is easier than it looks',
    'start with the basics',
    'keep your plan short',
    'check the details twice',
    'ask for help when you need it',
    'take breaks often',
    'small steps add up',
    'good tools save time',
  ],
  povSentences: {
    third_person: [
      'Most people who try {topic} find it rewarding.',
      'Experts recommend a steady, patient approach to {topic}.',
      'Beginners often underestimate how much planning {topic} needs.',
    ],
    first_person_singular: [
      'I learned most of what I know about {topic} by trial and error.',
      'In my experience, {topic} gets easier every time I try it.',
      'I always keep a short checklist for {topic} close at hand.',
    ],
    first_person_plural: [
      'We have tested many approaches to {topic} over the years.',
      'In our experience, {topic} works best with a clear plan.',
      'We always recommend starting {topic} with realistic goals.',
    ],
    second_person: [
      'You will get more out of {topic} if you plan ahead.',
      'If you are new to {topic}, start with the basics.',
      'You do not need expensive gear to enjoy {topic}.',
    ],
  },
  passive: [
    ['{topic} is often praised by experienced users for its flexibility.', 'Experienced users often praise {topic} for its flexibility.'],
    ['Mistakes are usually made when the preparation is rushed.', 'People usually make mistakes when they rush the preparation.'],
    ['The best routes are chosen by locals long before the season starts.', 'Locals choose the best routes long before the season starts.'],
  ],
  complex: [
    ['Many people start {topic} with high expectations', 'the ones who stick with it usually adjust those expectations early'],
    ['Preparation takes time', 'it saves far more time later when things do not go to plan'],
    ['Costs vary widely between options', 'a careful comparison often reveals a clear favourite'],
  ],
  formal: [
    ['It is imperative to utilize appropriate equipment when undertaking {topic}.', 'Use the right gear for {topic}.'],
    ['Furthermore, individuals should endeavour to ascertain local regulations.', 'Also, check the local rules.'],
    ['Subsequently, one may commence the primary activity.', 'Then you can get started.'],
  ],
  midConclusion: 'In conclusion, {topic} is worth the effort for anyone willing to prepare.',
  openers: ['', '', 'In practice, ', 'Above all, ', 'Time and again, ', 'For many readers, ', 'On balance, ', 'Surprisingly, ', 'As a rule, ', 'Put simply, '],
  tails: ['', '', ' for most people', ' in the long run', ' throughout the year', ' when budgets are tight', ' especially at the start', ' even for experts'],
  listTitle: 'The {n} Best {Topic}',
  roundupTitle: 'The {n} Best {Topic} This Year, Tested and Reviewed',
  reviewTitle: '{product} Review: Is It Worth It?',
  placesTitle: 'The {n} Best {Topic} in {city}',
  videoTitle: '{Topic}: Key Lessons from the Video',
  rewriteTitle: '{Topic}: A Fresh Look',
  keywordTitles: { guide: '{Keyword}: The Complete Guide', list: '{Keyword}: Our {n} Top Picks', review: '{Keyword}: Is It Worth It?' },
  keywordSentence: 'This article is about {keyword}.',
  itemSentences: [
    '{item} stands out for its variety and easy access.',
    'Visitors often rate {item} among their favourites.',
    '{item} is a good choice when time is short.',
    'The views around {item} are especially good in the early morning.',
  ],
  productSentences: [
    '{product} offers solid build quality for its price.',
    'In everyday use, {product} proved reliable and easy to handle.',
    '{product} is a strong pick if value matters most.',
    'The design of {product} feels well thought out.',
  ],
  placeSentences: [
    '{place} is a favourite among locals in {city}.',
    'Expect a friendly welcome at {place}.',
    '{place} gets busy at weekends, so arrive early.',
    'The atmosphere at {place} is relaxed and welcoming.',
  ],
  videoSentences: [
    'The video walks through {topic} step by step.',
    'The presenter shows several practical examples of {topic}.',
    'A short demonstration in the video makes the idea easy to follow.',
  ],
  pros: ['Excellent value for money', 'Easy to set up', 'Solid build quality', 'Lightweight and portable', 'Good customer support'],
  cons: ['Limited colour options', 'The manual could be clearer', 'Slightly heavier than rivals', 'Accessories cost extra'],
  bestFor: ['Beginners', 'Families', 'Budget buyers', 'Frequent users', 'Travel'],
};

const german: LanguagePack = {
  name: 'German',
  htmlLang: 'de',
  sentenceEnd: '.',
  sentenceGap: ' ',
  complexJoiner: '; ',
  titleCase: false,
  headings: {
    introduction: 'Einleitung',
    conclusion: 'Fazit',
    faq: 'Häufig gestellte Fragen',
    keyTakeaways: 'Das Wichtigste in Kürze',
    sources: 'Quellen',
    pros: 'Vorteile',
    cons: 'Nachteile',
    verdict: 'Unser Urteil',
    specifications: 'Technische Daten',
    comparison: 'Vergleich auf einen Blick',
    keyMoments: 'Wichtige Momente im Video',
    howWeChose: 'So haben wir ausgewählt',
    summary: 'Zusammenfassung',
    supplemental: ['Tipps vor dem Start', 'Häufige Fehler', 'Was Sie mitnehmen sollten'],
  },
  labels: {
    price: 'Preis',
    rating: 'Bewertung',
    address: 'Adresse',
    hours: 'Öffnungszeiten',
    phone: 'Telefon',
    checkPrice: 'Preis prüfen',
    viewOnMap: 'Auf der Karte ansehen',
    watchVideo: 'Video ansehen',
    basedOn: 'Dieser Artikel ist eine Überarbeitung von',
    seeMoreProducts: 'Weitere Produkte ansehen',
    feature: 'Merkmal',
    bestFor: 'Ideal für',
    product: 'Produkt',
    place: 'Ort',
    productId: 'Produktnummer',
  },
  titles: ['{Topic}: Der komplette Ratgeber', 'Alles, was Sie über {topic} wissen müssen', '{Topic} einfach erklärt'],
  sectionNames: [
    'Was ist {topic}?',
    'Warum {topic} wichtig ist',
    'So gelingt der Einstieg in {topic}',
    'Die richtige Wahl bei {topic}',
    'Häufige Fehler bei {topic}',
    'Werkzeuge und Hilfsmittel für {topic}',
    'Schritt für Schritt zu {topic}',
    'Kosten und Budget für {topic}',
    'Fortgeschrittene Tipps zu {topic}',
    'Sicherheit und praktische Hinweise',
  ],
  subsectionNames: ['Die Grundlagen', 'Was Experten sagen', 'Eine kurze Checkliste', 'Worauf Sie achten sollten'],
  faqQuestions: [
    'Wie fange ich am besten mit {topic} an?',
    'Was kostet {topic}?',
    'Ist {topic} für Anfänger geeignet?',
    'Welche Fehler passieren bei {topic} am häufigsten?',
  ],
  takeaways: [
    'Fangen Sie bei {topic} klein an und steigern Sie sich langsam.',
    'Gute Vorbereitung verhindert die meisten Probleme.',
    'Das richtige Werkzeug macht {topic} leichter.',
    'Halten Sie Ihre Fortschritte fest.',
  ],
  clauses: [
    'bei {topic} zahlt sich gute Vorbereitung mehr aus als Talent',
    'die Details von {topic} sind wichtiger als viele denken',
    'ein guter Plan macht aus {topic} ein Vergnügen',
    'kleine, regelmäßige Schritte bringen mehr als seltene Kraftakte',
    'es lohnt sich, mehrere Möglichkeiten zu vergleichen',
    'Wetter, Budget und Zeit bestimmen den Verlauf von {topic}',
    'Geduld ist bei {topic} die wichtigste Fähigkeit',
    'eine Checkliste verhindert die meisten Überraschungen',
    'Qualität schlägt bei {topic} meistens Menge',
  ],
  simpleClauses: ['{topic} ist leichter als gedacht', 'beginnen Sie mit den Grundlagen', 'prüfen Sie die Details', 'kleine Schritte helfen'],
  povSentences: {
    third_person: ['Die meisten Menschen empfinden {topic} als lohnend.', 'Fachleute empfehlen bei {topic} einen geduldigen Ansatz.'],
    first_person_singular: ['Ich habe das meiste über {topic} durch Ausprobieren gelernt.', 'Meiner Erfahrung nach wird {topic} mit jedem Versuch leichter.'],
    first_person_plural: ['Wir haben viele Ansätze für {topic} getestet.', 'Unserer Erfahrung nach gelingt {topic} am besten mit einem Plan.'],
    second_person: ['Sie holen mehr aus {topic} heraus, wenn Sie vorausplanen.', 'Wenn Sie neu bei {topic} sind, beginnen Sie mit den Grundlagen.'],
  },
  passive: [['{topic} wird von erfahrenen Nutzern oft gelobt.', 'Erfahrene Nutzer loben {topic} oft.']],
  complex: [['Viele beginnen {topic} mit hohen Erwartungen', 'wer dabei bleibt, passt sie meist früh an']],
  formal: [['Es ist unerlässlich, geeignete Ausrüstung zu verwenden.', 'Nutzen Sie die passende Ausrüstung.']],
  midConclusion: 'Zusammenfassend lässt sich sagen, dass sich {topic} für alle lohnt, die sich vorbereiten.',
  openers: ['', '', 'Kurz gesagt: ', 'Wichtig: ', 'In der Praxis gilt: ', 'Erfahrungsgemäß gilt: ', 'Unterm Strich: '],
  tails: ['', '', ' – das gilt besonders am Anfang', ' – auch für Fortgeschrittene', ' – und zwar das ganze Jahr über'],
  listTitle: 'Die {n} besten {Topic}',
  roundupTitle: 'Die {n} besten {Topic} im Test',
  reviewTitle: '{product} im Test: Lohnt sich der Kauf?',
  placesTitle: 'Die {n} besten {Topic} in {city}',
  videoTitle: '{Topic}: Die wichtigsten Erkenntnisse aus dem Video',
  rewriteTitle: '{Topic}: Ein neuer Blick',
  keywordTitles: { guide: '{Keyword}: Der komplette Ratgeber', list: '{Keyword}: Unsere {n} Favoriten', review: '{Keyword}: Lohnt sich der Kauf?' },
  keywordSentence: 'In diesem Artikel geht es um {keyword}.',
  itemSentences: ['{item} überzeugt durch Vielfalt und gute Erreichbarkeit.', 'Viele Besucher zählen {item} zu ihren Favoriten.'],
  productSentences: ['{product} bietet eine solide Verarbeitung für den Preis.', 'Im Alltag zeigte sich {product} zuverlässig.'],
  placeSentences: ['{place} ist bei Einheimischen in {city} sehr beliebt.', 'Am Wochenende ist {place} oft gut besucht.'],
  videoSentences: ['Das Video erklärt {topic} Schritt für Schritt.', 'Eine kurze Vorführung macht die Idee leicht verständlich.'],
  pros: ['Gutes Preis-Leistungs-Verhältnis', 'Einfache Einrichtung', 'Solide Verarbeitung'],
  cons: ['Wenige Farben', 'Die Anleitung könnte klarer sein', 'Zubehör kostet extra'],
  bestFor: ['Einsteiger', 'Familien', 'Reisen'],
};

const spanish: LanguagePack = {
  name: 'Spanish',
  htmlLang: 'es',
  sentenceEnd: '.',
  sentenceGap: ' ',
  complexJoiner: '; ',
  titleCase: false,
  headings: {
    introduction: 'Introducción',
    conclusion: 'Conclusión',
    faq: 'Preguntas frecuentes',
    keyTakeaways: 'Puntos clave',
    sources: 'Fuentes',
    pros: 'Ventajas',
    cons: 'Desventajas',
    verdict: 'Nuestro veredicto',
    specifications: 'Especificaciones',
    comparison: 'Comparativa rápida',
    keyMoments: 'Momentos clave del vídeo',
    howWeChose: 'Cómo elegimos',
    summary: 'Resumen',
    supplemental: ['Consejos antes de empezar', 'Errores comunes', 'Qué llevar'],
  },
  labels: {
    price: 'Precio',
    rating: 'Valoración',
    address: 'Dirección',
    hours: 'Horario',
    phone: 'Teléfono',
    checkPrice: 'Ver precio',
    viewOnMap: 'Ver en el mapa',
    watchVideo: 'Ver el vídeo',
    basedOn: 'Este artículo es una reescritura de',
    seeMoreProducts: 'Ver más productos',
    feature: 'Característica',
    bestFor: 'Ideal para',
    product: 'Producto',
    place: 'Lugar',
    productId: 'Identificador del producto',
  },
  titles: ['{Topic}: la guía completa', 'Todo lo que necesitas saber sobre {topic}', '{Topic} explicado paso a paso'],
  sectionNames: [
    '¿Qué es {topic}?',
    'Por qué importa {topic}',
    'Cómo empezar con {topic}',
    'Cómo elegir bien en {topic}',
    'Errores comunes con {topic}',
    'Herramientas y recursos para {topic}',
    'Un plan paso a paso para {topic}',
    'Costes y presupuesto de {topic}',
    'Consejos avanzados sobre {topic}',
    'Seguridad y aspectos prácticos',
  ],
  subsectionNames: ['Lo básico', 'Lo que dicen los expertos', 'Una lista rápida', 'A qué prestar atención'],
  faqQuestions: ['¿Cuál es la mejor forma de empezar con {topic}?', '¿Cuánto cuesta {topic}?', '¿Es {topic} adecuado para principiantes?'],
  takeaways: ['Empieza poco a poco con {topic}.', 'La preparación evita la mayoría de los problemas.', 'Las herramientas adecuadas facilitan {topic}.'],
  clauses: [
    '{topic} premia la preparación más que el talento',
    'los detalles de {topic} importan más de lo que parece',
    'un buen plan convierte {topic} en un placer',
    'los pasos pequeños y constantes dan mejores resultados',
    'conviene comparar varias opciones antes de decidir',
    'la paciencia es la habilidad más infravalorada en {topic}',
    'una lista de comprobación evita sorpresas',
  ],
  simpleClauses: ['{topic} es más fácil de lo que parece', 'empieza por lo básico', 'revisa los detalles', 'los pasos pequeños ayudan'],
  povSentences: {
    third_person: ['La mayoría de las personas encuentra {topic} gratificante.', 'Los expertos recomiendan paciencia con {topic}.'],
    first_person_singular: ['Aprendí casi todo sobre {topic} probando.', 'En mi experiencia, {topic} es más fácil cada vez.'],
    first_person_plural: ['Hemos probado muchos enfoques de {topic}.', 'En nuestra experiencia, {topic} funciona mejor con un plan.'],
    second_person: ['Sacarás más partido a {topic} si planificas.', 'Si eres nuevo en {topic}, empieza por lo básico.'],
  },
  passive: [['{topic} es elogiado a menudo por los usuarios expertos.', 'Los usuarios expertos elogian a menudo {topic}.']],
  complex: [['Mucha gente empieza {topic} con grandes expectativas', 'quienes continúan suelen ajustarlas pronto']],
  formal: [['Resulta imperativo utilizar el equipamiento apropiado.', 'Usa el equipo adecuado.']],
  midConclusion: 'En conclusión, {topic} merece la pena para quien se prepara.',
  openers: ['', '', 'En la práctica, ', 'Sobre todo, ', 'Por lo general, ', 'En resumen, ', 'Sorprendentemente, '],
  tails: ['', '', ', sobre todo al principio', ', incluso para expertos', ' durante todo el año'],
  listTitle: 'Los {n} mejores {topic}',
  roundupTitle: 'Los {n} mejores {topic} probados y analizados',
  reviewTitle: 'Análisis de {product}: ¿merece la pena?',
  placesTitle: 'Los {n} mejores {topic} en {city}',
  videoTitle: '{Topic}: lo más importante del vídeo',
  rewriteTitle: '{Topic}: una nueva mirada',
  keywordTitles: { guide: '{Keyword}: la guía completa', list: '{Keyword}: nuestras {n} opciones favoritas', review: '{Keyword}: ¿merece la pena?' },
  keywordSentence: 'Este artículo trata sobre {keyword}.',
  itemSentences: ['{item} destaca por su variedad y fácil acceso.', 'Muchos visitantes consideran {item} uno de sus favoritos.'],
  productSentences: ['{product} ofrece una construcción sólida por su precio.', 'En el uso diario, {product} resultó fiable.'],
  placeSentences: ['{place} es uno de los favoritos de la gente de {city}.', '{place} se llena los fines de semana.'],
  videoSentences: ['El vídeo explica {topic} paso a paso.', 'Una breve demostración hace la idea fácil de seguir.'],
  pros: ['Buena relación calidad-precio', 'Fácil de montar', 'Construcción sólida'],
  cons: ['Pocos colores', 'El manual podría ser más claro', 'Los accesorios se venden aparte'],
  bestFor: ['Principiantes', 'Familias', 'Viajes'],
};

const french: LanguagePack = {
  name: 'French',
  htmlLang: 'fr',
  sentenceEnd: '.',
  sentenceGap: ' ',
  complexJoiner: ' ; ',
  titleCase: false,
  headings: {
    introduction: 'Introduction',
    conclusion: 'Conclusion',
    faq: 'Questions fréquentes',
    keyTakeaways: 'Les points essentiels',
    sources: 'Sources',
    pros: 'Points forts',
    cons: 'Points faibles',
    verdict: 'Notre verdict',
    specifications: 'Caractéristiques techniques',
    comparison: 'Comparatif en un coup d’œil',
    keyMoments: 'Moments clés de la vidéo',
    howWeChose: 'Comment nous avons choisi',
    summary: 'Résumé',
    supplemental: ['Conseils avant de commencer', 'Erreurs fréquentes', 'Quoi emporter'],
  },
  labels: {
    price: 'Prix',
    rating: 'Note',
    address: 'Adresse',
    hours: 'Horaires',
    phone: 'Téléphone',
    checkPrice: 'Voir le prix',
    viewOnMap: 'Voir sur la carte',
    watchVideo: 'Regarder la vidéo',
    basedOn: 'Cet article est une réécriture de',
    seeMoreProducts: 'Voir plus de produits',
    feature: 'Caractéristique',
    bestFor: 'Idéal pour',
    product: 'Produit',
    place: 'Lieu',
    productId: 'Référence produit',
  },
  titles: ['{Topic} : le guide complet', 'Tout savoir sur {topic}', '{Topic} expliqué simplement'],
  sectionNames: [
    'Qu’est-ce que {topic} ?',
    'Pourquoi {topic} est important',
    'Bien débuter avec {topic}',
    'Faire le bon choix pour {topic}',
    'Les erreurs fréquentes avec {topic}',
    'Outils et ressources pour {topic}',
    'Un plan étape par étape pour {topic}',
    'Coûts et budget pour {topic}',
    'Conseils avancés sur {topic}',
    'Sécurité et aspects pratiques',
  ],
  subsectionNames: ['Les bases', 'L’avis des experts', 'Une liste rapide', 'Points de vigilance'],
  faqQuestions: ['Comment bien commencer avec {topic} ?', 'Combien coûte {topic} ?', '{Topic} convient-il aux débutants ?'],
  takeaways: ['Commencez {topic} progressivement.', 'Une bonne préparation évite la plupart des problèmes.', 'Les bons outils facilitent {topic}.'],
  clauses: [
    '{topic} récompense la préparation plus que le talent',
    'les détails de {topic} comptent plus qu’on ne le pense',
    'un bon plan transforme {topic} en plaisir',
    'de petits pas réguliers donnent de meilleurs résultats',
    'il vaut la peine de comparer plusieurs options',
    'la patience est la qualité la plus sous-estimée pour {topic}',
    'une liste de contrôle évite les mauvaises surprises',
  ],
  simpleClauses: ['{topic} est plus simple qu’il n’y paraît', 'commencez par les bases', 'vérifiez les détails', 'les petits pas aident'],
  povSentences: {
    third_person: ['La plupart des gens trouvent {topic} gratifiant.', 'Les experts recommandent la patience avec {topic}.'],
    first_person_singular: ['J’ai appris l’essentiel de {topic} en essayant.', 'D’après mon expérience, {topic} devient plus facile à chaque fois.'],
    first_person_plural: ['Nous avons testé de nombreuses approches de {topic}.', 'D’après notre expérience, {topic} réussit mieux avec un plan.'],
    second_person: ['Vous tirerez davantage de {topic} en planifiant.', 'Si vous débutez avec {topic}, commencez par les bases.'],
  },
  passive: [['{topic} est souvent salué par les utilisateurs expérimentés.', 'Les utilisateurs expérimentés saluent souvent {topic}.']],
  complex: [['Beaucoup commencent {topic} avec de grandes attentes', 'ceux qui persévèrent les ajustent vite']],
  formal: [['Il est impératif d’utiliser un équipement approprié.', 'Utilisez le bon équipement.']],
  midConclusion: 'En conclusion, {topic} vaut l’effort pour qui s’y prépare.',
  openers: ['', '', 'En pratique, ', 'Avant tout, ', 'En règle générale, ', 'En résumé, ', 'Étonnamment, '],
  tails: ['', '', ', surtout au début', ', même pour les experts', ' tout au long de l’année'],
  listTitle: 'Les {n} meilleurs {topic}',
  roundupTitle: 'Les {n} meilleurs {topic} testés et comparés',
  reviewTitle: 'Test de {product} : vaut-il le coup ?',
  placesTitle: 'Les {n} meilleurs {topic} à {city}',
  videoTitle: '{Topic} : l’essentiel de la vidéo',
  rewriteTitle: '{Topic} : un nouveau regard',
  keywordTitles: { guide: '{Keyword} : le guide complet', list: '{Keyword} : nos {n} coups de cœur', review: '{Keyword} : vaut-il le coup ?' },
  keywordSentence: 'Cet article parle de {keyword}.',
  itemSentences: ['{item} se distingue par sa variété et son accès facile.', 'Beaucoup de visiteurs placent {item} parmi leurs favoris.'],
  productSentences: ['{product} offre une fabrication solide pour son prix.', 'Au quotidien, {product} s’est montré fiable.'],
  placeSentences: ['{place} est très apprécié des habitants de {city}.', '{place} est souvent plein le week-end.'],
  videoSentences: ['La vidéo explique {topic} étape par étape.', 'Une courte démonstration rend l’idée facile à suivre.'],
  pros: ['Bon rapport qualité-prix', 'Facile à installer', 'Fabrication solide'],
  cons: ['Peu de coloris', 'Le manuel pourrait être plus clair', 'Accessoires en supplément'],
  bestFor: ['Débutants', 'Familles', 'Voyages'],
};

const japanese: LanguagePack = {
  name: 'Japanese',
  htmlLang: 'ja',
  sentenceEnd: '。',
  sentenceGap: '',
  complexJoiner: '、',
  titleCase: false,
  headings: {
    introduction: 'はじめに',
    conclusion: 'まとめ',
    faq: 'よくある質問',
    keyTakeaways: '要点',
    sources: '参考文献',
    pros: 'メリット',
    cons: 'デメリット',
    verdict: '総合評価',
    specifications: '仕様',
    comparison: '比較表',
    keyMoments: '動画の主なポイント',
    howWeChose: '選び方',
    summary: '概要',
    supplemental: ['始める前のヒント', 'よくある失敗', '持ち物'],
  },
  labels: {
    price: '価格',
    rating: '評価',
    address: '住所',
    hours: '営業時間',
    phone: '電話',
    checkPrice: '価格を見る',
    viewOnMap: '地図で見る',
    watchVideo: '動画を見る',
    basedOn: 'この記事は次の記事を書き直したものです：',
    seeMoreProducts: 'ほかの商品を見る',
    feature: '項目',
    bestFor: 'おすすめ',
    product: '商品',
    place: '場所',
    productId: '商品番号',
  },
  titles: ['{topic}完全ガイド', '{topic}について知っておくべきこと', 'わかりやすい{topic}入門'],
  sectionNames: [
    '{topic}とは？',
    '{topic}が大切な理由',
    '{topic}の始め方',
    '{topic}の選び方',
    '{topic}でよくある失敗',
    '{topic}に役立つ道具',
    '{topic}の手順',
    '{topic}の費用と予算',
    '{topic}の上級テクニック',
    '安全と実用上の注意',
  ],
  subsectionNames: ['基本', '専門家の意見', 'チェックリスト', '注意点'],
  faqQuestions: ['{topic}はどう始めればよいですか？', '{topic}の費用はどれくらいですか？', '{topic}は初心者でも大丈夫ですか？'],
  takeaways: ['{topic}は少しずつ始めましょう。', '準備が多くの問題を防ぎます。', '適切な道具が{topic}を楽にします。'],
  clauses: [
    '{topic}では才能よりも準備が大切です',
    '{topic}の細部は思った以上に重要です',
    'よい計画があれば{topic}は楽しくなります',
    '小さな積み重ねが大きな成果につながります',
    '複数の選択肢を比べる価値があります',
    '{topic}では忍耐が最も過小評価されている力です',
    'チェックリストは多くの驚きを防ぎます',
  ],
  simpleClauses: ['{topic}は思ったより簡単です', '基本から始めましょう', '細部を確認しましょう', '小さな一歩が役立ちます'],
  povSentences: {
    third_person: ['多くの人が{topic}にやりがいを感じています。', '専門家は{topic}に根気強く取り組むことを勧めています。'],
    first_person_singular: ['私は{topic}のほとんどを試行錯誤で学びました。', '私の経験では、{topic}は回を重ねるごとに楽になります。'],
    first_person_plural: ['私たちは{topic}のさまざまな方法を試してきました。', '私たちの経験では、{topic}は計画があるとうまくいきます。'],
    second_person: ['あなたが前もって計画すれば、{topic}をもっと楽しめます。', 'あなたが{topic}の初心者なら、基本から始めましょう。'],
  },
  passive: [['{topic}は経験豊富な人々によってよく称賛されています。', '経験豊富な人々はよく{topic}を称賛しています。']],
  complex: [['多くの人は大きな期待を持って{topic}を始めます', '続ける人は早い段階で期待を調整します']],
  formal: [['適切な装備を使用することが不可欠であります。', 'ちょうどいい道具を使いましょう。']],
  midConclusion: '結論として、{topic}は準備する人にとって価値があります。',
  openers: ['', '', '実際には、', '何よりも、', '一般的に、', '意外なことに、', '要するに、'],
  tails: [''],
  listTitle: 'おすすめの{topic}{n}選',
  roundupTitle: 'おすすめの{topic}{n}選【徹底比較】',
  reviewTitle: '{product}レビュー：買う価値はある？',
  placesTitle: '{city}のおすすめ{topic}{n}選',
  videoTitle: '動画で学ぶ{topic}のポイント',
  rewriteTitle: '{topic}を改めて考える',
  keywordTitles: { guide: '{Keyword}完全ガイド', list: '{Keyword}：おすすめ{n}選', review: '{Keyword}：買う価値はある？' },
  keywordSentence: 'この記事では{keyword}について説明します。',
  itemSentences: ['{item}は種類の多さとアクセスのよさが魅力です。', '多くの人が{item}をお気に入りに挙げています。'],
  productSentences: ['{product}は価格の割にしっかりした作りです。', '普段使いでも{product}は信頼できました。'],
  placeSentences: ['{place}は{city}の地元の人に人気です。', '週末の{place}は混み合います。'],
  videoSentences: ['この動画は{topic}を順を追って説明します。', '短い実演でわかりやすくなっています。'],
  pros: ['コストパフォーマンスが高い', '設定が簡単', '作りがしっかりしている'],
  cons: ['色の選択肢が少ない', '説明書がわかりにくい', '付属品は別売り'],
  bestFor: ['初心者', '家族', '旅行'],
};

/** Languages the writer has templates for, keyed by lower-case name (English and native names). */
const PACKS: Record<string, LanguagePack> = {
  english,
  german,
  deutsch: german,
  spanish,
  español: spanish,
  espanol: spanish,
  french,
  français: french,
  francais: french,
  japanese,
  日本語: japanese,
};

/** Names of the languages the writer writes natively. */
export const SUPPORTED_WRITER_LANGUAGES = ['English', 'German', 'Spanish', 'French', 'Japanese'] as const;

/** The pack for a language name, or undefined when the writer has no templates for it. */
export function languagePack(language: string): LanguagePack | undefined {
  return PACKS[language.trim().toLowerCase()];
}

export const ENGLISH = english;
