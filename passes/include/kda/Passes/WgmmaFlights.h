//===- WgmmaFlights.h - a warpgroup atom's flight, issue to wait -*- C++
//-*-===//
//
// A kda.wgmma reads its B bytes from workgroup memory asynchronously, any
// time from its issue until the kda.wgmma_wait that covers its commit group.
// Until the verifier's LDS models carry such reads in flight across
// barriers (docs/wgmma-plan.md, step 4), a flight is held to one stretch of
// straight-line code, where the models need not see it in flight:
//  - R5: a kda.wgmma_wait in the same block, after it, covers its group
//    (at least pending + 1 kda.wgmma_commit lie between: the first closes
//    its group, and the wait lets only the `pending` latest stay open);
//  - R3: no barrier lies between the issue and that wait (a barrier would
//    publish to other threads bytes the atom may still read);
//  - R2: no op between them writes workgroup memory (the issuing threads'
//    own stores are not ordered after an asynchronous read).
// Other threads' writes in the barrier interval are the handoff
// check's (LdsHandoffs.cpp: a wgmma's read is the whole operand's array).
//
//===----------------------------------------------------------------------===//
#ifndef KDA_PASSES_WGMMAFLIGHTS_H
#define KDA_PASSES_WGMMAFLIGHTS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::kda {

/// Checks every kda.wgmma under `root`; failure after an error naming the
/// rule, the atom and the op that breaks its flight.
LogicalResult verifyWgmmaFlights(Operation *root);

} // namespace mlir::kda

#endif // KDA_PASSES_WGMMAFLIGHTS_H
