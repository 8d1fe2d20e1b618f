// Tables of the test engine (suites, runs, results, reports, alerts). Owned by the engine feature.
export {};
