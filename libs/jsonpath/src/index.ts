export { JsonPath } from './jsonpath';
export { parseJsonPath, unquoteExtend, type JsonPathNode, type ListNode, type ParamsEntry } from './jsonpath.parser';
