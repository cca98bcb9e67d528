import { z } from "zod";

// zod compiles object parsers with `new Function` unless told not to; in the browser the page's CSP
// forbids eval, and even the probe zod makes is reported as a violation. Must run before any schema
// is built, so it is imported first by ./form-schemas.
z.config({ jitless: true });
