// Types for bench/proposed-validator.cjs, so the type-checked property test can import it.
export declare function isValidServiceRecordFast(record: unknown): boolean;
export declare function installFastPath(serviceRecordModule: { serviceRecordSchema: { safeParse: (value: unknown) => unknown } }): () => void;
