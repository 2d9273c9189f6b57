// A write from a timer or an I/O callback must not join the experience API's shared transaction
// (decisions/013): it goes through `ownTransaction(db, () => ...)`. Inside a deferred function (an
// async one, or one handed to a timer, a promise's `.then`/`.catch`/`.finally` or an emitter's
// `.on`/`.once`), the rule reports every use of a connection (the better-sqlite3 `Database` or a
// statement of it, found by type) or of an object holding one (a context), except as the first
// argument of `ownTransaction` or inside the write it is given. Harmless by type, so allowed: a
// connection's data properties (`db.open`, `db.state`), a context's other fields (`ctx.logger`),
// and an argument whose parameter's type holds no connection (`announce` takes the connection's
// state only). Not seen: a function handed over by name or to a helper that defers it (http.ts
// `lazy` builds a router once its module is loaded), and a connection reached through a property
// of a property. Needs the type information `npm run lint` gives it.
import ts from 'typescript';

const DEFERRING_CALLS = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'nextTick', 'then', 'catch', 'finally', 'on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
const CONNECTION_TYPES = new Set(['Database', 'Statement']);
const WRAPPERS = new Set(['TSNonNullExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'ChainExpression']);

const calleeName = (callee) => (callee.type === 'MemberExpression' ? callee.property.name : callee.name);
const isFunction = (node) => node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression' || node.type === 'FunctionDeclaration';
const isOwnTransaction = (node) => node?.type === 'CallExpression' && calleeName(node.callee) === 'ownTransaction';

/** Where the nearest deferred function or `ownTransaction` write around `node` leaves it: deferred or not. */
function deferred(node) {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (!isFunction(child)) continue;
    if (isOwnTransaction(parent) && parent.arguments[1] === child) return false;
    if (child.async) return true;
    if (parent.type === 'CallExpression' && parent.arguments.includes(child) && DEFERRING_CALLS.has(calleeName(parent.callee))) return true;
  }
  return false;
}

export const timerWritesRule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { joins: 'A write from a timer or an I/O callback would join the requests\' shared transaction (decisions/013): wrap it in ownTransaction(db, () => ...).' },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    const checker = services.program.getTypeChecker();
    const kinds = new Map();

    const isConnection = (type) => {
      if (type.isUnionOrIntersection()) return type.types.some(isConnection);
      const symbol = type.getSymbol() ?? type.aliasSymbol;
      return !!symbol && CONNECTION_TYPES.has(symbol.getName()) && !!symbol.declarations?.some((declaration) => declaration.getSourceFile().fileName.includes('/better-sqlite3/'));
    };
    /** 'connection', 'holder' (an object with a connection among its properties) or undefined. */
    const kindOf = (node) => typeKind(services.getTypeAtLocation(node));
    const typeKind = (type) => {
      if (!kinds.has(type)) {
        const holds = () => !type.getCallSignatures().length && checker.getPropertiesOfType(type).some((property) => isConnection(checker.getTypeOfSymbol(property)));
        kinds.set(type, isConnection(type) ? 'connection' : holds() ? 'holder' : undefined);
      }
      return kinds.get(type);
    };

    /** The parameter takes a concrete type without a connection: the callee cannot write through it. */
    const harmlessParameter = (argument) => {
      const type = checker.getContextualType(services.esTreeNodeToTSNodeMap.get(argument));
      return !!type && !(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter)) && !typeKind(type);
    };

    const check = (identifier) => {
      if (!kindOf(identifier) || !deferred(identifier)) return;
      let node = identifier;
      for (;;) {
        const { parent } = node;
        if (WRAPPERS.has(parent.type) || (parent.type === 'MemberExpression' && parent.object === node && kindOf(parent))) node = parent;
        else break;
      }
      const { parent } = node;
      if (isOwnTransaction(parent) && parent.arguments[0] === node) return;
      if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.arguments.includes(node) && harmlessParameter(node)) return;
      if (parent.type === 'MemberExpression' && parent.object === node) {
        if (kindOf(node) === 'holder') return;
        if (!services.getTypeAtLocation(parent).getCallSignatures().length) return;
      }
      context.report({ node, messageId: 'joins' });
    };

    return {
      'Program:exit'() {
        const scopes = [context.sourceCode.scopeManager.globalScope];
        for (let scope; (scope = scopes.pop()); ) {
          scopes.push(...scope.childScopes);
          for (const reference of scope.references) if (reference.isValueReference && reference.isRead()) check(reference.identifier);
        }
      },
    };
  },
};
