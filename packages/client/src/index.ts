// The svc client (work in progress): see packages/client/README.md once written.
export {};
