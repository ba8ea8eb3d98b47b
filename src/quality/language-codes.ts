// The service's language names ("English", "German") as the ISO 639-3 codes franc answers with.

/**
 * The spec names languages in English ("English or another supported language name; full list not
 * shown"). franc answers with the ISO 639-3 code of the individual language it recognises, so the
 * macrolanguages take the code of their standard variety (Chinese → Mandarin `cmn`, Arabic →
 * Standard Arabic `arb`, Persian → Iranian Persian `pes`, Malay → `zlm`, Norwegian → Bokmål `nob`).
 */
export const LANGUAGE_CODES: Readonly<Record<string, readonly string[]>> = {
  english: ['eng'], german: ['deu'], spanish: ['spa'], french: ['fra'], italian: ['ita'], portuguese: ['por'],
  dutch: ['nld'], polish: ['pol'], swedish: ['swe'], danish: ['dan'], norwegian: ['nob', 'nno'], finnish: ['fin'],
  czech: ['ces'], slovak: ['slk'], hungarian: ['hun'], romanian: ['ron'], bulgarian: ['bul'], greek: ['ell'],
  turkish: ['tur'], russian: ['rus'], ukrainian: ['ukr'], japanese: ['jpn'], chinese: ['cmn'], korean: ['kor'],
  arabic: ['arb'], hebrew: ['heb'], hindi: ['hin'], indonesian: ['ind'], malay: ['zlm'], vietnamese: ['vie'],
  thai: ['tha'], croatian: ['hrv'], serbian: ['srp'], bosnian: ['bos'], slovenian: ['slv'], lithuanian: ['lit'],
  latvian: ['lvs'], estonian: ['ekk'], persian: ['pes'], bengali: ['ben'], tagalog: ['tgl'], filipino: ['tgl'],
  catalan: ['cat'], urdu: ['urd'], swahili: ['swh'], afrikaans: ['afr'], galician: ['glg'], belarusian: ['bel'],
  macedonian: ['mkd'], albanian: ['als'], kazakh: ['kaz'], uzbek: ['uzn'], azerbaijani: ['azj'], marathi: ['mar'],
};

/** The codes a language name stands for (case and surrounding space ignored), or undefined for a name we do not know. */
export function languageCodes(name: string): readonly string[] | undefined {
  return LANGUAGE_CODES[name.trim().toLowerCase()];
}
