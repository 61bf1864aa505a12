import type { IDataObject } from 'n8n-workflow';

/**
 * One listing per execution for the input items that ask the same: n8n runs List once per input
 * item, and 1,000 items with the same parameters would read the same listing 1,000 times. Keyed by
 * the execution's context object (a new one for every run of the node, every retry and every tool
 * call, so nothing outlives the run), then by the caller's key for the resolved parameters and
 * credential. A failed listing fails every item asking the same, each with its own item index,
 * without reading it again.
 */
const listingsByRun = new WeakMap<object, Map<string, Promise<IDataObject[]>>>();

/**
 * The listing for `key` in this run: read by `read` the first time, then shared. Every other caller
 * gets its own deep copy of every item, so a later node changing one item's JSON cannot change another's.
 */
export async function readOncePerRun(
	run: object,
	key: string,
	itemIndex: number,
	read: () => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	let listings = listingsByRun.get(run);
	if (listings === undefined) listingsByRun.set(run, (listings = new Map()));
	let listing = listings.get(key);
	// The item that reads the listing gets it as read: nothing changes it while this node runs, so
	// the copies the others get are of the listing as read, and one listing costs no more memory than before.
	const first = listing === undefined;
	if (listing === undefined) {
		listing = read();
		listings.set(key, listing);
	}
	try {
		const items = await listing;
		// A JSON round trip: the records came from JSON, and JSON.parse keeps a "__proto__" key as data.
		return first ? items : items.map((json) => JSON.parse(JSON.stringify(json)) as IDataObject);
	} catch (error) {
		throw forItem(error, itemIndex);
	}
}

/** A copy of the error (same class, text and fields) that names `itemIndex`: the shared one names the first item. */
function forItem(error: unknown, itemIndex: number): unknown {
	if (!(error instanceof Error)) return error;
	const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as Error & {
		context?: IDataObject;
	};
	if (typeof copy.context === 'object' && copy.context !== null) copy.context = { ...copy.context, itemIndex };
	return copy;
}
