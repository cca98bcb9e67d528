-- What names one thing and not another in a title (lib/domain/feedback/alike.ts): a path, a token with
-- a digit, a snake_case identifier, an acronym, a quoted string, or a capitalised word after the first.
CREATE FUNCTION feedback_title_specifics(title text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT s ORDER BY s), '{}') FROM (
    SELECT lower(m[1]) AS s FROM regexp_matches(title, '((?:/[A-Za-z0-9_.{}:-]+)+|[A-Za-z_]*[0-9][A-Za-z0-9_.:-]*|[A-Za-z]+_[A-Za-z0-9_]+|[A-Z]{2,}[A-Z0-9]*|''[^'']{3,80}''|"[^"]{3,80}")', 'g') AS m
    UNION ALL SELECT lower(m[1]) FROM regexp_matches(title, '\s([A-Z][a-z]+)', 'g') AS m
  ) AS found
$$;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "alike_specifics" text[] GENERATED ALWAYS AS (feedback_title_specifics("title")) STORED;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "alike_words" text[] GENERATED ALWAYS AS (tsvector_to_array(to_tsvector('english', "title" || ' ' || "description"))) STORED;