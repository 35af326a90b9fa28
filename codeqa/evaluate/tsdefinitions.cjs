// Where names used in JS/TS files are defined, per the TypeScript language service (go to definition).
// Used by codeqa/evaluate/graphcheck.py. Reads {"tree": DIR, "uses": [[file, line, column], ...]} (file relative to
// DIR, line 1-based, column 0-based in characters) on stdin; writes one list per use of
// [file, first line, last line] definitions (lines of the whole declaration where the service gives it), or null
// when the file cannot be read. Needs the `typescript` package on NODE_PATH.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const tree = path.resolve(input.tree);

function compilerOptions() {
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    const file = path.join(tree, name);
    if (!fs.existsSync(file)) continue;
    const read = ts.readConfigFile(file, ts.sys.readFile);
    if (read.error) continue;
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, tree);
    return parsed.options;
  }
  return {};
}

const options = {
  ...compilerOptions(),
  allowJs: true,
  checkJs: false,
  noEmit: true,
  skipLibCheck: true,
  jsx: ts.JsxEmit.Preserve,
  maxNodeModuleJsDepth: 0,
};
if (!options.moduleResolution) options.moduleResolution = ts.ModuleResolutionKind.Node10;
const roots = [...new Set(input.uses.map((use) => path.join(tree, use[0])))];
const versions = new Map();
const host = {
  getScriptFileNames: () => roots,
  getScriptVersion: (file) => versions.get(file) || "1",
  getScriptSnapshot: (file) => {
    if (!fs.existsSync(file)) return undefined;
    return ts.ScriptSnapshot.fromString(fs.readFileSync(file, "utf8"));
  },
  getCurrentDirectory: () => tree,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (opts) => ts.getDefaultLibFilePath(opts),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());

function lineOf(file, position) {
  const source = service.getProgram().getSourceFile(file);
  return source ? source.getLineAndCharacterOfPosition(position).line + 1 : 0;
}

const answers = input.uses.map(([file, line, column]) => {
  const full = path.join(tree, file);
  const source = service.getProgram().getSourceFile(full);
  if (!source) return null;
  let position;
  try {
    position = source.getPositionOfLineAndCharacter(line - 1, column);
  } catch (error) {
    return null;
  }
  let found;
  try {
    found = service.getDefinitionAtPosition(full, position) || [];
  } catch (error) {
    return null;
  }
  return found.map((definition) => {
    const span = definition.contextSpan || definition.textSpan;
    const relative = path.relative(tree, definition.fileName);
    return [
      relative.startsWith("..") || path.isAbsolute(relative) ? definition.fileName : relative.split(path.sep).join("/"),
      lineOf(definition.fileName, span.start),
      lineOf(definition.fileName, span.start + span.length),
    ];
  });
});
process.stdout.write(JSON.stringify(answers));
