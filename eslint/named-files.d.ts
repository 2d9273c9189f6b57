export function existing<Names extends readonly string[]>(names: Names, root?: string): Names;
