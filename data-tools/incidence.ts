/**
 * Per-node incidence lists (CSR) of a graph whose edges are given as node pairs: for node v,
 * `adjArc[adjFirst[v] .. adjFirst[v + 1])` are the arcs leaving v, arc = edge * 2 + dir (dir 0 when v is the edge's
 * first node). Arcs are in increasing id per node. A self-loop (a closed way touching the graph at one node) lists
 * both its arcs at that node.
 */
export function buildIncidence(
  edgeNodes: Uint32Array,
  nodeCount: number,
): { adjFirst: Uint32Array; adjArc: Uint32Array } {
  const E = edgeNodes.length / 2;
  const adjFirst = new Uint32Array(nodeCount + 1);
  for (let e = 0; e < E; e++) {
    adjFirst[edgeNodes[2 * e]! + 1]!++;
    adjFirst[edgeNodes[2 * e + 1]! + 1]!++;
  }
  for (let v = 0; v < nodeCount; v++) adjFirst[v + 1]! += adjFirst[v]!;
  const adjArc = new Uint32Array(adjFirst[nodeCount]!);
  const fill = adjFirst.slice(0, nodeCount);
  for (let e = 0; e < E; e++) {
    const a = edgeNodes[2 * e]!;
    const b = edgeNodes[2 * e + 1]!;
    adjArc[fill[a]!++] = e * 2;
    adjArc[fill[b]!++] = e * 2 + 1;
  }
  return { adjFirst, adjArc };
}
