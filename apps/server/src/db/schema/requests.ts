// Tables of client requests. Owned by the requests feature.
export {};
