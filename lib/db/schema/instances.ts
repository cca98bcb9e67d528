import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/**
 * The processes serving this database (web instances and workers), each with digests of the secrets every
 * instance must share, so a process and `npm run doctor` can tell an instance whose MPP_SECRET_KEY or
 * APP_SECRET differs (lib/ops/instances.ts). A digest is an HMAC of a fixed text under the secret: it tells
 * two secrets apart and reveals neither.
 */
export const instances = pgTable("instances", {
  id: text("id").primaryKey(),
  role: text("role").notNull(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  startedAt: instant("started_at").notNull(),
  seenAt: instant("seen_at").notNull(),
  secrets: jsonb("secrets").$type<Record<string, string>>().notNull(),
});
