// `npx webpack` builds main.js, its worker and their assets (the pack, the WebAssembly) into dist/.
export default {
  mode: 'production',
  entry: './main.js',
  output: { path: new URL('./dist/', import.meta.url).pathname, clean: true },
};
