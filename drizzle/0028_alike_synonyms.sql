-- The words the duplicate suggestion compares (lib/domain/feedback/alike.ts): a text's English stems, stop words
-- out, with the common ways of saying one thing made one word, so two reporters' own words meet: "basket" is
-- "cart", "log in" / "sign in" / "login" one word, "closes unexpectedly" a crash, "does nothing" / "nothing
-- happens" / "doesn't respond" one symptom, "picture" / "photo" / "image" one thing. General words only, no
-- product's names; measured on testing/alike-pairs.json.
CREATE FUNCTION feedback_alike_words(body text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT coalesce(s.canonical, w.word)), '{}')
  FROM unnest(tsvector_to_array(to_tsvector('english',
    regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    regexp_replace(regexp_replace(
      replace(lower(body), '’', ''''),
      '\m(log|logs|logged|logging|sign|signs|signed|signing)[ -]?(in|on)\M', ' signin ', 'g'),
      '\m(log|logs|logged|logging|sign|signs|signed|signing|kicked|kicks)[ -]?out\M', ' signout ', 'g'),
      '\m(sign|signs|signed|signing)[ -]?up\M', ' signup ', 'g'),
      '\m(closes|closed|closing|close|quits|quit|quitting|exits|exited|exiting|shuts|shut|shutting)( down)? (unexpectedly|suddenly|by itself|on its own|without warning)\M', ' crash ', 'g'),
      '\m(force[sd]? (to )?(close|quit)|(shuts|shutting) down)\M', ' crash ', 'g'),
      '\m((does|did|do)( absolutely)? nothing|nothing (at all )?(happens|happened|happening)|(has|had|have)? ?no effect)\M', ' unresponsive ', 'g'),
      '\m(doesn''?t|does not|didn''?t|did not|won''?t|will not|isn''?t|is not|not) respond(s|ing)?\M', ' unresponsive ', 'g'),
      '\mtwo times\M', ' twice ', 'g'),
      '\mtak(e|es|ing) (forever|ages)\M', ' slow ', 'g')
  ))) AS w(word)
  LEFT JOIN (VALUES
    ('basket', 'cart'), ('login', 'signin'), ('logon', 'signin'), ('logout', 'signout'),
    ('pictur', 'imag'), ('photo', 'imag'), ('pic', 'imag'),
    ('slowli', 'slow'), ('laggi', 'slow'), ('lag', 'slow'), ('sluggish', 'slow'),
    ('failur', 'error'), ('remov', 'delet'), ('eras', 'delet'),
    ('promo', 'discount'), ('coupon', 'discount'), ('voucher', 'discount'),
    ('mail', 'email'), ('e-mail', 'email'), ('alert', 'notif'), ('profil', 'account'),
    ('hang', 'freez'), ('frozen', 'freez'), ('stuck', 'freez'),
    ('vanish', 'disappear'), ('gone', 'disappear'), ('lost', 'disappear'), ('empti', 'blank'),
    ('buy', 'purchas'), ('bought', 'purchas'), ('buyer', 'custom'), ('shopper', 'custom'),
    ('clip', 'video'), ('movi', 'video'), ('sound', 'audio'),
    ('favourit', 'favorit'), ('wishlist', 'favorit'), ('membership', 'subscript'),
    ('motorway', 'highway'), ('freeway', 'highway'), ('payment', 'pay'), ('paid', 'pay'), ('applic', 'app'),
    ('tap', 'click'), ('press', 'click'), ('choos', 'select'), ('pick', 'select'),
    ('reload', 'refresh'), ('big', 'larg'), ('huge', 'larg'),
    ('mobil', 'phone'), ('smartphon', 'phone'), ('cellphon', 'phone'),
    ('incorrect', 'wrong'), ('inaccur', 'wrong'), ('teammat', 'colleagu'), ('cowork', 'colleagu'),
    ('duplic', 'twice'), ('doubl', 'twice')
  ) AS s(word, canonical) ON s.word = w.word
$$;--> statement-breakpoint
-- Dropped and added again, so every existing report's words are computed anew by the function.
ALTER TABLE "feedback" DROP COLUMN "alike_words";--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "alike_words" text[] GENERATED ALWAYS AS (feedback_alike_words("title" || ' ' || "description")) STORED;
