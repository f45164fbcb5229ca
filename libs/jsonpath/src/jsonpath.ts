import { FloatLiteral, goEqual, goLess, goMarshal, goPrint, goSprintV, goTypeName } from './go-values';
import { parseJsonPath, type JsonPathNode, type ListNode } from './jsonpath.parser';

/** An evaluation error carrying what the failing step returned, as kube's walk functions do (filters use it). */
class EvalError extends Error {
  constructor(
    message: string,
    readonly partial: unknown[],
  ) {
    super(message);
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof FloatLiteral);
}

/** A string's elements, as Go's reflect indexes it: its UTF-8 bytes. */
function stringBytes(s: string): number[] {
  return [...Buffer.from(s, 'utf8')];
}

/** The children wildcard and recursive descent visit (map values, slice elements, string bytes). */
function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.values(v);
  if (typeof v === 'string') return stringBytes(v);
  return [];
}

/**
 * kube's JSONPath (k8s.io/client-go/util/jsonpath): templates with fields, `..` recursive descent,
 * `*` wildcards, `[i]`/`[a:b:c]` slices, unions, `[?(…)]` filters (comparisons and existence),
 * `{range …}{end}` and literal text. Values are decoded JSON. One instance is parsed once and evaluated
 * many times; evaluation keeps range state on the instance, so an instance is not re-entrant.
 */
export class JsonPath {
  private allowMissing = false;
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEndNode = -1;

  private constructor(
    readonly name: string,
    private readonly root: ListNode,
  ) {}

  /** Parses a template; throws an Error with kube's parser message. */
  static parse(template: string, name = ''): JsonPath {
    return new JsonPath(name, parseJsonPath(template));
  }

  /** Missing fields give no result instead of an error ("x is not found"), as printers ask for. */
  allowMissingKeys(allow: boolean): this {
    this.allowMissing = allow;
    return this;
  }

  /** One result list per top-level node (text or `{…}`), ranges expanded; throws kube's evaluation errors. */
  findResults(data: unknown): unknown[][] {
    this.beginRange = this.inRange = this.endRange = 0;
    this.lastEndNode = -1;
    try {
      return this.find(data, this.root.nodes, 0);
    } catch (err) {
      throw err instanceof EvalError ? new Error(err.message) : err;
    }
  }

  /** The template's output for `data`, as `kubectl get -o jsonpath=…` prints it. */
  execute(data: unknown): string {
    return this.findResults(data)
      .map((r) => this.printResults(r))
      .join('');
  }

  /** Scalars as fmt prints them, maps and slices as JSON, separated by one space. */
  printResults(results: readonly unknown[]): string {
    return results.map((r) => (Array.isArray(r) || isMap(r) ? goMarshal(r) : goPrint(r))).join(' ');
  }

  private find(data: unknown, nodes: readonly JsonPathNode[], from: number): unknown[][] {
    const cur = [data];
    const full: unknown[][] = [];
    for (let i = from; i < nodes.length; i++) {
      const results = this.walk(cur, nodes[i]);
      // An end node closes the block being iterated.
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        this.lastEndNode = i;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        if (results.length) {
          for (const value of results) full.push(...this.find(value, nodes, i + 1));
        } else {
          // Nothing to iterate: the block is still walked once so that its end is found.
          this.find(undefined, nodes, i + 1);
        }
        this.inRange--;
        for (let k = i + 1; k < nodes.length; k++) {
          if (k === this.lastEndNode) {
            i = k;
            break;
          }
        }
        continue;
      }
      full.push(results);
    }
    return full;
  }

  private walk(input: unknown[], node: JsonPathNode): unknown[] {
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.value);
      case 'array':
        return this.evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
      case 'bool':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new FloatLiteral(node.value));
      case 'wildcard':
        return input.filter((v) => v !== null).flatMap(children);
      case 'recursive':
        return this.evalRecursive(input);
      case 'union':
        return this.evalUnion(input, node.nodes);
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalList(input: unknown[], list: ListNode): unknown[] {
    let cur = input;
    for (const node of list.nodes) cur = this.walk(cur, node);
    return cur;
  }

  private evalIdentifier(input: unknown[], name: string): unknown[] {
    switch (name) {
      case 'range':
        this.beginRange++;
        return input;
      case 'end':
        if (this.inRange > 0) {
          this.endRange++;
          return [];
        }
        throw new EvalError('not in range, nothing to end', []);
      default:
        throw new EvalError(`unrecognized identifier ${name}`, input);
    }
  }

  private evalField(input: unknown[], field: string): unknown[] {
    const results: unknown[] = [];
    if (!input.length) return results;
    for (const value of input) {
      if (isMap(value) && Object.prototype.hasOwnProperty.call(value, field)) results.push(value[field]);
    }
    if (!results.length && !this.allowMissing) throw new EvalError(`${field} is not found`, results);
    return results;
  }

  private evalArray(input: unknown[], params: readonly [{ value: number; known: boolean; derived: boolean }, { value: number; known: boolean; derived: boolean }, { value: number; known: boolean; derived: boolean }]): unknown[] {
    const result: unknown[] = [];
    for (const value of input) {
      if (value === null) continue;
      if (!Array.isArray(value)) throw new EvalError(`${goTypeName(value)} is not array or slice`, input);
      const len = value.length;
      let start = params[0].known ? params[0].value : 0;
      if (start < 0) start += len;
      let end = params[1].known ? params[1].value : len;
      if (end < 0 || (end === 0 && params[1].derived)) end += len;
      // Asking for zero elements is allowed whatever the bounds.
      if (end === start) return result;
      if (start >= len || start < 0) throw new EvalError(`array index out of bounds: index ${start}, length ${len}`, input);
      if (end > len || end < 0) throw new EvalError(`array index out of bounds: index ${end - 1}, length ${len}`, input);
      if (start > end) throw new EvalError(`starting index ${start} is greater than ending index ${end}`, input);
      let step = 1;
      if (params[2].known) {
        if (params[2].value <= 0) throw new EvalError('step must be > 0', input);
        step = params[2].value;
      }
      for (let i = start; i < end; i += step) result.push(value[i]);
    }
    return result;
  }

  private evalUnion(input: unknown[], lists: readonly ListNode[]): unknown[] {
    const result: unknown[] = [];
    for (const list of lists) {
      try {
        result.push(...this.evalList(input, list));
      } catch (err) {
        if (err instanceof EvalError) throw new EvalError(err.message, input);
        throw err;
      }
    }
    return result;
  }

  private evalRecursive(input: unknown[]): unknown[] {
    const result: unknown[] = [];
    for (const value of input) {
      if (value === null) continue;
      const kids = children(value);
      if (kids.length) {
        result.push(value);
        result.push(...this.evalRecursive(kids));
      }
    }
    return result;
  }

  private evalFilter(input: unknown[], node: Extract<JsonPathNode, { type: 'filter' }>): unknown[] {
    const results: unknown[] = [];
    for (const value of input) {
      if (!Array.isArray(value)) throw new EvalError(`${goSprintV(value)} is not array or slice and cannot be filtered`, input);
      for (const item of value) {
        let lefts: unknown[];
        let leftError: EvalError | undefined;
        try {
          lefts = this.evalList([item], node.left);
        } catch (err) {
          if (!(err instanceof EvalError)) throw err;
          lefts = err.partial;
          leftError = err;
        }
        if (node.operator === 'exists') {
          if (lefts.length > 0) results.push(item);
          continue;
        }
        if (leftError) throw new EvalError(leftError.message, input);
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new EvalError('can only compare one element at a time', input);
        let rights: unknown[];
        try {
          rights = this.evalList([item], node.right);
        } catch (err) {
          if (err instanceof EvalError) throw new EvalError(err.message, input);
          throw err;
        }
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new EvalError('can only compare one element at a time', input);
        if (this.compare(node.operator, lefts[0], rights[0], results)) results.push(item);
      }
    }
    return results;
  }

  private compare(operator: string, left: unknown, right: unknown, results: unknown[]): boolean {
    try {
      switch (operator) {
        case '<':
          return goLess(left, right);
        case '>':
          return goLess(right, left);
        case '==':
          return goEqual(left, right);
        case '!=':
          return !goEqual(left, right);
        case '<=':
          return goLess(left, right) || goEqual(left, right);
        case '>=':
          return goLess(right, left) || goEqual(left, right);
      }
    } catch (err) {
      throw new EvalError((err as Error).message, results);
    }
    throw new EvalError(`unrecognized filter operator ${operator}`, results);
  }
}
