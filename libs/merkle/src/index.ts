export { hashLeaf, hashChildren, emptyRoot, factLeaf, digestBytes, isDigestText, toDigest, sameHash, type NodeHash } from './hash';
export {
  splitPoint,
  inclusionRanges,
  consistencyRanges,
  perfectSubtrees,
  rangeHash,
  foldPerfect,
  RootBuilder,
  type LeafRange,
  type Subtree,
} from './tree';
export { treeRoot, inclusionPath, consistencyProof } from './reference';
export { rootFromInclusion, verifyInclusion, verifyConsistency } from './verify';
