/**
 * The one declaration of a service's documented fields. Everything field-specific derives from it:
 * the zod schema and the fast check (serviceRecord.ts), Simplify and its key order, the trigger's
 * stored state (ServicesTrigger/state/snapshot.ts), which changes are events and what `previous` holds (diff.ts), and the
 * nested view of a removed service. Adding a field is one line here (plus its tests).
 *
 * - `key`: the field's name in the simplified view (and in `previous`, and in the stored state);
 *   the simplified view lists the fields in this order, after `id_service`.
 * - `path`: where the field sits in the record as the API sends it.
 * - `type`: the JSON type the API documents; `null` always counts as absent.
 * - `change`: which trigger event a change of this field is (`statusChanged`, `specsChanged`); none
 *   for fields that are only shown (name, alias).
 * - `labelOf`: this field names the thing another field identifies (the OS name of the OS id). It is
 *   compared only when neither side has the identifier, and it is reported with the identifier when
 *   that changes.
 */
export const SERVICE_FIELDS = [
	{ key: 'name', path: ['values', 'values', 'name'], type: 'string' },
	{ key: 'alias', path: ['values', 'values', 'alias'], type: 'string' },
	{ key: 'status', path: ['values', 'values', 'status'], type: 'string', change: 'statusChanged' },
	{ key: 'os_id', path: ['values', 'values', 'service', 'customize', 'OS', 'id'], type: 'string', change: 'specsChanged' },
	{
		key: 'os_name',
		path: ['values', 'values', 'service', 'customize', 'OS', 'name'],
		type: 'string',
		change: 'specsChanged',
		labelOf: 'os_id',
	},
	{
		key: 'vcores',
		path: ['values', 'values', 'service', 'customize', 'specifications', 'vcores'],
		type: 'integer',
		change: 'specsChanged',
	},
	{
		key: 'ram_gb',
		path: ['values', 'values', 'service', 'customize', 'specifications', 'GB', 'ram'],
		type: 'integer',
		change: 'specsChanged',
	},
	{
		key: 'hd_gb',
		path: ['values', 'values', 'service', 'customize', 'specifications', 'GB', 'hd'],
		type: 'integer',
		change: 'specsChanged',
	},
] as const satisfies readonly ServiceFieldDeclaration[];

export interface ServiceFieldDeclaration {
	key: string;
	path: readonly string[];
	type: 'string' | 'integer';
	change?: 'statusChanged' | 'specsChanged';
	labelOf?: string;
}

type DeclaredField = (typeof SERVICE_FIELDS)[number];
export type ServiceFieldValue = string | number | null;

type ValueOf<Field extends DeclaredField> = Field['type'] extends 'integer' ? number | null : string | null;

/** The flat view most workflows want (the node's "Simplify" output). */
export type SimplifiedService = { id_service: string } & { [Field in DeclaredField as Field['key']]: ValueOf<Field> } & {
	[key: string]: ServiceFieldValue;
};

/**
 * The documented part of a record, typed from the paths: e.g. `values?.values?.status` is
 * `string | null | undefined`. Every object may carry more (the API may add fields).
 */
type DocumentedRecord = UnionToIntersection<NestedField<DeclaredField>>;

type NestedField<Field> = Field extends DeclaredField ? NestedAt<Field['path'], ValueOf<Field>> : never;
type NestedAt<Path extends readonly string[], Value> = Path extends readonly [
	infer Head extends string,
	...infer Rest extends readonly string[],
]
	? { [Key in Head]?: (Rest extends readonly [] ? Value : NestedAt<Rest, Value> & { [key: string]: unknown }) | null }
	: never;
type UnionToIntersection<Union> = (Union extends unknown ? (arg: Union) => void : never) extends (arg: infer Both) => void ? Both : never;

/** A record as the API sent it: `id_service` plus the documented fields (see SERVICE_FIELDS) and any others. */
export type ServiceRecord = { id_service: string } & DocumentedRecord & { [key: string]: unknown };

/** Keys of the fields whose change is the given event. */
export type ChangeFieldKey<Event extends string> = Extract<DeclaredField, { change: Event }>['key'];
