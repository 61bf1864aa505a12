'use strict';
// PROPOSAL, measured by `npm run bench` and checked by test/unit/property.test.ts; not used by the
// package. A hand-written check of the documented record schema (nodes/shared/serviceRecord.ts) that
// allocates nothing. It is *sound*: when it says true, the zod schema accepts the record too. When it
// says false, the node would fall back to zod's safeParse, which then produces the same detailed
// error as today. So messages stay identical and zod only runs on records that are actually wrong.

const OBJECT_PROTOTYPE = Object.prototype;

/** A plain JSON object (what JSON.parse makes); anything else goes to zod for the verdict. */
function isPlainJsonObject(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === OBJECT_PROTOTYPE || prototype === null;
}

const optionalString = (value) => value === undefined || value === null || typeof value === 'string';
const optionalInteger = (value) =>
  value === undefined || value === null || (typeof value === 'number' && Number.isInteger(value));

/** True only for records the zod schema accepts: id_service a non-empty string, every documented field nullish or of its type. */
function isValidServiceRecordFast(record) {
  if (!isPlainJsonObject(record)) return false;
  const id = record.id_service;
  if (typeof id !== 'string' || id.length === 0) return false;
  const outer = record.values;
  if (outer === undefined || outer === null) return true;
  if (!isPlainJsonObject(outer)) return false;
  const data = outer.values;
  if (data === undefined || data === null) return true;
  if (!isPlainJsonObject(data)) return false;
  if (!optionalString(data.name) || !optionalString(data.alias) || !optionalString(data.status)) return false;
  const service = data.service;
  if (service === undefined || service === null) return true;
  if (!isPlainJsonObject(service)) return false;
  const customize = service.customize;
  if (customize === undefined || customize === null) return true;
  if (!isPlainJsonObject(customize)) return false;
  const os = customize.OS;
  if (os !== undefined && os !== null) {
    if (!isPlainJsonObject(os) || !optionalString(os.id) || !optionalString(os.name)) return false;
  }
  const specifications = customize.specifications;
  if (specifications === undefined || specifications === null) return true;
  if (!isPlainJsonObject(specifications) || !optionalInteger(specifications.vcores)) return false;
  const gb = specifications.GB;
  if (gb !== undefined && gb !== null) {
    if (!isPlainJsonObject(gb) || !optionalInteger(gb.ram) || !optionalInteger(gb.hd)) return false;
  }
  return true;
}

/**
 * Installs the proposal on a loaded copy of serviceRecord.js (the bench's "proposed" rows):
 * `safeParse` answers success at once for records the fast check accepts, else asks zod.
 */
function installFastPath(serviceRecordModule) {
  const schema = serviceRecordModule.serviceRecordSchema;
  const zodSafeParse = schema.safeParse.bind(schema);
  schema.safeParse = (candidate) =>
    isValidServiceRecordFast(candidate) ? { success: true, data: candidate } : zodSafeParse(candidate);
  return () => {
    delete schema.safeParse;
  };
}

module.exports = { isValidServiceRecordFast, installFastPath };
