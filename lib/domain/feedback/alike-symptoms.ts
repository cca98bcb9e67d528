import { type SQL, sql } from "drizzle-orm";

/**
 * What went wrong, in the usual words of bug reports, as a few classes: two reporters who name one symptom in
 * their own words ("closes unexpectedly" / "crashes", "nothing happens" / "doesn't respond") name one class,
 * and reports whose classes differ ("crashes" / "flickers", "never arrives" / "link expired") are two issues of
 * one area. Written from general knowledge of bug reports, not from the labelled pairs; no product's names.
 * Each pattern is a PostgreSQL regular expression matched against the lower-cased title and description
 * (`\m`, `\M`: a word's start and end).
 */
const SYMPTOMS: Record<string, string[]> = {
  crash: [
    "\\mcrash(es|ed|ing)?\\M",
    "\\mforce[sd]?[ -]?(to )?(close|quit)",
    "\\m(closes|closed|closing|quits|quit|exits|exited|shuts|shut) (down )?(unexpectedly|suddenly|by itself|on its own|without warning|instantly|immediately)",
    "\\m(shuts|shut|shutting) down\\M",
    "\\mkeeps stopping\\M",
    "\\mhas stopped\\M",
    "\\msegfault|segmentation fault|core dump",
    "\\mpanic(s|ked)?\\M",
    "\\mback to the home ?screen",
  ],
  unresponsive: [
    "\\m(does|did|do)( absolutely)? nothing\\M",
    "\\mnothing (at all )?(happens|happened|happening)\\M",
    "\\mno effect\\M",
    "\\m(doesn'?t|does not|didn'?t|did not|won'?t|will not|isn'?t|is not|not) (respond|react)",
    "\\munresponsive\\M",
    "\\m(is |are |gets |get )?ignored\\M",
    "\\m(not|isn'?t|un)clickable\\M",
    "\\mnot clickable\\M",
    "\\mdead (button|link|click)",
    "\\m(grey|gray|greyed|grayed) out\\M",
  ],
  error: [
    "\\merrors?\\M",
    "\\mexceptions?\\M",
    "\\m50[0234]\\M",
    "\\mfails? with\\M",
    "\\mstack ?trace|traceback",
    "\\msomething went wrong\\M",
    "\\moops\\M",
    "\\minternal server\\M",
  ],
  slow: [
    "\\mslow(ly|er|ness)?\\M",
    "\\mlag(s|gy|ging)?\\M",
    "\\msluggish\\M",
    "\\mtak(e|es|ing) (forever|ages|minutes|so long|too long|a long time)",
    "\\m(hangs?|hanging|hung)\\M",
    "\\m(freeze|freezes|freezing|froze|frozen)\\M",
    "\\mstuck\\M",
    "\\mspinn(er|ing)|\\mspins\\M",
    "\\m(loading|loads) forever\\M",
    "\\mkeeps loading\\M",
    "\\m(time out|times out|timed out|timeout|timeouts)\\M",
    "\\mstutter(s|ing)?\\M",
    "\\mchoppy\\M",
  ],
  wrong: [
    "\\mwrong(ly)?\\M",
    "\\mincorrect(ly)?\\M",
    "\\minaccurate\\M",
    "\\moff by\\M",
    "\\mmismatch(es|ed)?\\M",
    "\\m(doesn'?t|does not|don'?t|do not|not) match",
    "\\mmiscalculat",
    "\\m(doesn'?t|does not) add up\\M",
    "\\minstead of\\M",
    "\\mround(s|ed|ing)? (up|down|to|off)\\M",
    "\\mshould (be|say|show|read)\\M",
  ],
  missing: [
    "\\mmissing\\M",
    "\\mabsent\\M",
    "\\m(not|isn'?t|aren'?t|no longer|never) (shown|showing|displayed|visible|listed|there)\\M",
    "\\m(doesn'?t|does not|don'?t|do not|didn'?t|no longer|never) (show|appear|display|list)",
    "\\mblank\\M",
    "\\mempty\\M",
    "\\mdisappear(s|ed|ing)?\\M",
    "\\mvanish(es|ed|ing)?\\M",
    "\\m(is|are|was|were) gone\\M",
    "\\m(can'?t|cannot|can not) (find|see)\\M",
    "\\mnowhere\\M",
  ],
  unsaved: [
    "\\m(not|isn'?t|wasn'?t|never|aren'?t) (saved|stored|kept|remembered|persisted)\\M",
    "\\m(doesn'?t|does not|don'?t|didn'?t|won'?t|will not) (save|persist|stick|keep|remember)",
    "\\m(lost|loses|lose|losing)\\M",
    "\\m(reset|resets|resetting)\\M",
    "\\m(forget|forgets|forgot|forgotten)\\M",
    "\\mrevert(s|ed|ing)?\\M",
    "\\mback to (the )?default",
    "\\mwiped\\M",
    "\\mcleared\\M",
    "\\mundone\\M",
  ],
  repeated: [
    "\\mtwice\\M",
    "\\mtwo times\\M",
    "\\mdoubl(e|ed|es)\\M",
    "\\mduplicat(e|es|ed)\\M",
    "\\mtwo copies\\M",
    "\\mmultiple times\\M",
    "\\m(repeated|repeats)\\M",
  ],
  signin: [
    "\\m(can'?t|cannot|can not|unable to|won'?t let me) (log|sign) ?in",
    "\\m(logged|signed|kicked|logs|signs|kicks) (me )?out\\M",
    "\\msession(s)? (expires?|expired|times? out|timed out|ends?)",
    "\\m(log|sign) ?in again\\M",
    "\\m(password|credentials?) (is |are )?(rejected|not accepted|invalid|wrong)",
    "\\minvalid (password|credentials?)",
  ],
  link: [
    "\\mlink (has |had |is |was )?(expired|invalid|broken|dead)",
    "\\m(expired|invalid|broken|dead) link",
    "\\mlink (doesn'?t|does not|didn'?t|won'?t) work",
    "\\m404\\M",
    "\\mnot found\\M",
  ],
  undelivered: [
    "\\m(not|never) (received|delivered|arrived|sent)\\M",
    "\\mnever (arrives?|comes?|came|gets? sent|shows up)\\M",
    "\\m(doesn'?t|does not|didn'?t|did not|don'?t|do not|won'?t) (arrive|come|get sent|get delivered)",
    "\\m(didn'?t|did not|don'?t|do not|never|haven'?t|have not|hasn'?t) (get|got|gotten|receive)",
    "\\mno (email|e-mail|mail|message|notification|push|sms|text)s?\\M",
  ],
  layout: [
    "\\moverlap(s|ped|ping)?\\M",
    "\\mcut off\\M",
    "\\m(cropped|clipped|truncated)\\M",
    "\\mmisalign",
    "\\mcramped\\M",
    "\\munreadable\\M",
    "\\m(hard|impossible|difficult) to read\\M",
    "\\mcontrast\\M",
    "\\moff[ -]screen\\M",
    "\\mtoo (small|wide|narrow|tiny)\\M",
    "\\moverflow(s|ing)?\\M",
    "\\mlayout\\M",
    "\\m(doesn'?t|does not|don'?t) fit\\M",
    "\\msquashed|squished|stretched\\M",
  ],
  persistent: [
    "\\m(can'?t|cannot|can not|unable to|no way to) (turn|switch|shut) (it |them )?off",
    "\\m(can'?t|cannot|can not|unable to|no way to) (disable|dismiss|unsubscribe|opt out|stop|close|hide|mute)",
    "\\mstays? on\\M",
    "\\mkeeps? (showing|popping|appearing|coming back|sending|playing|reappearing|re-?enabling|turning on)",
    "\\m(won'?t|will not|doesn'?t) go away\\M",
    "\\mstill (get|gets|getting|receive|receiving|shows?|showing|on)\\M",
    "\\m(comes?|came) back\\M",
  ],
  noload: [
    "\\m(doesn'?t|does not|won'?t|will not|didn'?t|fails? to|never) (load|open|start|launch)",
    "\\mnot (loading|opening|starting|launching)\\M",
    "\\mwhite (screen|page)\\M",
    "\\mblank (screen|page)\\M",
  ],
  denied: [
    "\\m(permission|access) denied\\M",
    "\\mforbidden\\M",
    "\\m40[13]\\M",
    "\\munauthori[sz]ed\\M",
    "\\mnot (allowed|permitted)\\M",
  ],
  language: [
    "\\muntranslated\\M",
    "\\mtranslat(ion|ions|ed)\\M",
    "\\m(wrong|other) language\\M",
    "\\min (english|german|french|spanish|italian|dutch|portuguese|japanese|chinese)\\M",
  ],
  resource: [
    "\\mbattery\\M",
    "\\mdrain(s|ed|ing)?\\M",
    "\\m(memory|ram|cpu)\\M",
    "\\moverheat|gets (hot|warm)\\M",
  ],
  typo: ["\\mtypos?\\M", "\\mspelling\\M", "\\mmisspel", "\\mgrammar\\M"],
  order: [
    "\\m(wrong|random|reverse[d]?) order\\M",
    "\\mout of order\\M",
    "\\m(not|isn'?t|aren'?t) sorted\\M",
    "\\msort(s|ed|ing)?\\M",
  ],
  redirect: [
    "\\mredirect(s|ed|ing)?\\M",
    "\\m(takes|took|sends|sent|brings) me (back )?to\\M",
    "\\m(loop|loops|looping)\\M",
  ],
  flicker: ["\\mflicker(s|ed|ing|y)?\\M", "\\mflash(es|ing)\\M", "\\mjump(s|y|ing)\\M", "\\mglitch"],
  // Said of any symptom: cut from titles with the rest, but never a class two reports agree or differ on.
  cannot: [
    "\\m(can'?t|cannot|can not|unable to|not able to|won'?t let me|impossible to)\\M",
    "\\m(fails?|failed|failing) to\\M",
  ],
};

/**
 * Said without the symptom ("no error", "doesn't crash"), or a feature's name that uses a symptom's word
 * ("password reset"): dropped before matching.
 */
const DENIED =
  "\\m(password|pin) reset|reset (my |your |the )?(password|pin)|reset (link|email|code)|\\m(no|not|without|never|doesn'?t|does not|didn'?t|did not|don'?t|isn'?t|wasn'?t)( an?| any)? (crash\\w*|errors?|exceptions?|freez\\w*|lag\\w*|slow\\w*)\\M";

const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** Classes too general to tell two reports alike or apart. */
const GENERIC = new Set(["cannot"]);
const named = Object.entries(SYMPTOMS).filter(([name]) => !GENERIC.has(name));
/**
 * Every class in one pattern, each class a capturing group (its own groups made non-capturing). PostgreSQL
 * keeps the last 32 regular expressions it compiled: with a pattern per class the grouping statement used more
 * than that, and compiled every one again for each report it compared (13 ms to read one text instead of 3). Each
 * phrase is read once, by the first class that matches it where it starts: "something went wrong" is an error,
 * not a wrong value, and "wrong order" an order.
 */
const pattern = sql.raw(
  quoted(named.map(([, patterns]) => `(${patterns.join("|").replace(/\((?!\?)/g, "(?:")})`).join("|")),
);
const classes = sql.raw(
  `(values ${named.map(([name], i) => `(${i + 1}, ${quoted(name)})`).join(", ")}) as s(at, name)`,
);
/** Every word the lexicon uses: set aside from titles, what remains is the thing a title names. */
const vocabulary = quoted(
  Object.values(SYMPTOMS)
    .flat()
    .join(" ")
    .replace(/\\[mM]/g, " ")
    .replace(/[^a-z']+/g, " "),
);
const lowered = (text: SQL) => sql`replace(lower(${text}), '’', '''')`;

/** The symptom classes a text names, sorted; empty when it names none of them. */
export const symptomsOf = (text: SQL) =>
  sql`array(select distinct s.name
    from regexp_matches(regexp_replace(${lowered(text)}, ${sql.raw(quoted(DENIED))}, ' ', 'g'), ${pattern}, 'g') as m
    cross join lateral unnest(m) with ordinality as g(matched, at) join ${classes} on s.at = g.at
    where g.matched is not null order by s.name)`;

/** The stems of every word the lexicon uses: computed once a statement, then given to objectWords. */
export const symptomVocabulary = () => sql`feedback_alike_words(${sql.raw(vocabulary)})`;

/** A title's words (stems, synonyms made one) but the lexicon's: the thing it names. */
export const objectWords = (title: SQL, vocabularyStems: SQL) =>
  sql`array(select unnest(feedback_alike_words(${title})) except select unnest(${vocabularyStems}))`;
