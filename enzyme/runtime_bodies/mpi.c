/* Derivatives of MPI calls, as run-time helpers the generated derivative code calls (OpenMPI's <mpi.h>).
 *
 * pyenzyme's engine (enzyme/ad/mpi_calls.py) replaces a differentiated call of MPI_X by a call of
 *   __pyenzyme_mpi_X_fwd(args...)      forward mode: the primal call, then the tangents' communication;
 *   __pyenzyme_mpi_X_aug(args...)      augmented sweep: the primal call; returns a tape (a record or null);
 *   __pyenzyme_mpi_X_rev(args..., tape) reverse sweep: the adjoint communication;
 * where "args" are the primal call's arguments, each buffer followed by its shadow (null when the engine gave it
 * none).  Whether a call carries derivatives is decided by its datatype alone (MPI_DOUBLE, MPI_FLOAT and their
 * Fortran names), never by the shadows: both ends of a message and every member of a collective take part in the
 * derivative communication, a missing shadow sending zeros or receiving into a scratch buffer.
 *
 * Derivative messages travel on the primal's communicator and tag right after (forward) or in reverse order of
 * (reverse) the primal ones; MPI's non-overtaking rule keeps them apart.  Wildcard receives (MPI_ANY_SOURCE,
 * MPI_ANY_TAG) of floating-point data are refused: a derivative message could match them.
 *
 * Non-blocking calls: the record of an MPI_Isend/MPI_Irecv (buffer shadow, peer, tag) is kept in a table keyed by
 * the request's address until the MPI_Wait/MPI_Waitall that completes it takes it out and puts it on the tape.
 * Reverse sweep: the reverse of the Wait starts the adjoint communication (a receive into a scratch buffer for an
 * Isend, a send of the shadow for an Irecv); the reverse of the Isend/Irecv waits for it, then adds the received
 * adjoint into the shadow (Isend) or zeroes the shadow (Irecv).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HELPER __attribute__((weak, used))

/* -- errors and datatypes ---------------------------------------------------------------------------------- */
static __attribute__((noreturn, cold)) void refuse(const char *call, const char *why) {
  fprintf(stderr, "pyenzyme: the derivative of %s does not support %s\n", call, why);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  abort();
}

static void check(int rc, const char *call) {
  if (rc != MPI_SUCCESS) refuse(call, "a failing MPI call (it returned an error code)");
}

/* Bytes per element of a floating-point datatype that carries derivatives, 0 for an integer/character type
 * (communication without derivatives); refuses other floating-point or derived datatypes. */
static int float_size(MPI_Datatype t, const char *call) {
  if (t == MPI_DOUBLE || t == MPI_DOUBLE_PRECISION || t == MPI_REAL8) return 8;
  if (t == MPI_FLOAT || t == MPI_REAL || t == MPI_REAL4) return 4;
  if (t == MPI_INT || t == MPI_LONG || t == MPI_LONG_LONG || t == MPI_SHORT || t == MPI_CHAR ||
      t == MPI_SIGNED_CHAR || t == MPI_UNSIGNED_CHAR || t == MPI_BYTE || t == MPI_UNSIGNED ||
      t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG || t == MPI_UNSIGNED_SHORT || t == MPI_INT8_T ||
      t == MPI_INT16_T || t == MPI_INT32_T || t == MPI_INT64_T || t == MPI_UINT8_T || t == MPI_UINT16_T ||
      t == MPI_UINT32_T || t == MPI_UINT64_T || t == MPI_C_BOOL || t == MPI_INTEGER || t == MPI_LOGICAL ||
      t == MPI_CHARACTER || t == MPI_AINT || t == MPI_OFFSET || t == MPI_COUNT || t == MPI_2INT)
    return 0;
  refuse(call, "this datatype (only MPI_DOUBLE and MPI_FLOAT buffers carry derivatives; integer and "
               "character buffers carry none)");
}

enum Op { OP_SUM, OP_MIN, OP_MAX };

static enum Op op_of(MPI_Op op, const char *call) {
  if (op == MPI_SUM) return OP_SUM;
  if (op == MPI_MIN) return OP_MIN;
  if (op == MPI_MAX) return OP_MAX;
  refuse(call, "this reduction operation on floating-point data (MPI_SUM, MPI_MIN and MPI_MAX are supported)");
}

static void no_wildcards(int source, int tag, const char *call) {
  if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
    refuse(call, "MPI_ANY_SOURCE or MPI_ANY_TAG on floating-point data (a derivative message could match it)");
}

static void *scratch(int count, int size) {
  void *p = calloc(count > 0 ? (size_t)count : 1, (size_t)size);
  if (!p) refuse("an MPI call", "running out of memory for a derivative buffer");
  return p;
}

/* dst += src (count elements of size 8 or 4). */
static void add_into(void *dst, const void *src, int count, int size) {
  if (size == 8) {
    double *d = dst;
    const double *s = src;
    for (int i = 0; i < count; i++) d[i] += s[i];
  } else {
    float *d = dst;
    const float *s = src;
    for (int i = 0; i < count; i++) d[i] += s[i];
  }
}

static void zero(void *p, int count, int size) {
  if (p) memset(p, 0, (size_t)count * (size_t)size);
}

/* -- the table of outstanding non-blocking requests ------------------------------------------------------- */
enum Kind { K_SEND, K_RECV };

typedef struct Record {
  enum Kind kind;
  void *shadow;       /* the buffer's shadow/tangent (null: none) */
  void *temp;         /* scratch buffer of the derivative message */
  int count, size, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
  MPI_Request request; /* the derivative message's request */
  int started;
} Record;

typedef struct { MPI_Request *key; Record *rec; } Entry;
static Entry *entries;
static int n_entries, cap_entries;

static void remember(MPI_Request *key, Record *rec) {
  for (int i = 0; i < n_entries; i++)
    if (entries[i].key == key) {  /* a request variable reused before its Wait: the old record is lost */
      entries[i].rec = rec;
      return;
    }
  if (n_entries == cap_entries) {
    cap_entries = cap_entries ? 2 * cap_entries : 16;
    entries = realloc(entries, (size_t)cap_entries * sizeof *entries);
    if (!entries) refuse("MPI_Isend/MPI_Irecv", "running out of memory for the request table");
  }
  entries[n_entries++] = (Entry){key, rec};
}

/* The record of the request at `key` (null if none, e.g. integer data), removed from the table. */
static Record *take(MPI_Request *key) {
  for (int i = n_entries - 1; i >= 0; i--)
    if (entries[i].key == key) {
      Record *r = entries[i].rec;
      entries[i] = entries[--n_entries];
      return r;
    }
  return NULL;
}

static Record *new_record(enum Kind kind, void *shadow, int count, int size, MPI_Datatype type, int peer, int tag,
                          MPI_Comm comm) {
  Record *r = calloc(1, sizeof *r);
  if (!r) refuse("MPI_Isend/MPI_Irecv", "running out of memory for a request record");
  *r = (Record){kind, shadow, NULL, count, size, peer, tag, type, comm, MPI_REQUEST_NULL, 0};
  return r;
}

/* ================================================ forward mode ============================================= */
/* Width 1: the primal call, then the tangents' communication, which the ..._tan helpers below (one per further
 * direction) do alone. */
HELPER int __pyenzyme_mpi_MPI_Send_tan(const void *buf, const void *dbuf, int count, MPI_Datatype type, int dest,
                                       int tag, MPI_Comm comm);
HELPER int __pyenzyme_mpi_MPI_Recv_tan(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                       MPI_Comm comm, MPI_Status *status);
HELPER int __pyenzyme_mpi_MPI_Sendrecv_tan(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                           int dest, int stag, void *rbuf, void *drbuf, int rcount,
                                           MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                           MPI_Status *status);
HELPER int __pyenzyme_mpi_MPI_Bcast_tan(void *buf, void *dbuf, int count, MPI_Datatype type, int root,
                                        MPI_Comm comm);

HELPER int __pyenzyme_mpi_MPI_Send_fwd(const void *buf, const void *dbuf, int count, MPI_Datatype type, int dest,
                                       int tag, MPI_Comm comm) {
  float_size(type, "MPI_Send");
  check(MPI_Send(buf, count, type, dest, tag, comm), "MPI_Send");
  return __pyenzyme_mpi_MPI_Send_tan(buf, dbuf, count, type, dest, tag, comm);
}

HELPER int __pyenzyme_mpi_MPI_Recv_fwd(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                       MPI_Comm comm, MPI_Status *status) {
  if (float_size(type, "MPI_Recv")) no_wildcards(source, tag, "MPI_Recv");
  check(MPI_Recv(buf, count, type, source, tag, comm, status), "MPI_Recv");
  return __pyenzyme_mpi_MPI_Recv_tan(buf, dbuf, count, type, source, tag, comm, status);
}

HELPER int __pyenzyme_mpi_MPI_Sendrecv_fwd(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                           int dest, int stag, void *rbuf, void *drbuf, int rcount,
                                           MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                           MPI_Status *status) {
  float_size(stype, "MPI_Sendrecv");
  if (float_size(rtype, "MPI_Sendrecv")) no_wildcards(source, rtag, "MPI_Sendrecv");
  check(MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status),
        "MPI_Sendrecv");
  return __pyenzyme_mpi_MPI_Sendrecv_tan(sbuf, dsbuf, scount, stype, dest, stag, rbuf, drbuf, rcount, rtype, source,
                                         rtag, comm, status);
}

HELPER int __pyenzyme_mpi_MPI_Isend_fwd(const void *buf, const void *dbuf, int count, MPI_Datatype type, int dest,
                                        int tag, MPI_Comm comm, MPI_Request *request) {
  int size = float_size(type, "MPI_Isend");
  check(MPI_Isend(buf, count, type, dest, tag, comm, request), "MPI_Isend");
  if (size) {
    Record *r = new_record(K_SEND, (void *)dbuf, count, size, type, dest, tag, comm);
    if (!dbuf) r->temp = scratch(count, size);
    check(MPI_Isend(dbuf ? dbuf : r->temp, count, type, dest, tag, comm, &r->request), "MPI_Isend");
    remember(request, r);
  }
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Irecv_fwd(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                        MPI_Comm comm, MPI_Request *request) {
  int size = float_size(type, "MPI_Irecv");
  if (size) no_wildcards(source, tag, "MPI_Irecv");
  check(MPI_Irecv(buf, count, type, source, tag, comm, request), "MPI_Irecv");
  if (size) {
    Record *r = new_record(K_RECV, dbuf, count, size, type, source, tag, comm);
    if (!dbuf) r->temp = scratch(count, size);
    check(MPI_Irecv(dbuf ? dbuf : r->temp, count, type, source, tag, comm, &r->request), "MPI_Irecv");
    remember(request, r);
  }
  return MPI_SUCCESS;
}

static void finish_tangent(Record *r) {
  if (!r) return;
  check(MPI_Wait(&r->request, MPI_STATUS_IGNORE), "MPI_Wait");
  free(r->temp);
  free(r);
}

HELPER int __pyenzyme_mpi_MPI_Wait_fwd(MPI_Request *request, MPI_Status *status) {
  Record *r = take(request);
  check(MPI_Wait(request, status), "MPI_Wait");
  finish_tangent(r);
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Waitall_fwd(int count, MPI_Request *requests, MPI_Status *statuses) {
  Record **rs = scratch(count, sizeof(Record *));
  for (int i = 0; i < count; i++) rs[i] = take(&requests[i]);
  check(MPI_Waitall(count, requests, statuses), "MPI_Waitall");
  for (int i = 0; i < count; i++) finish_tangent(rs[i]);
  free(rs);
  return MPI_SUCCESS;
}

/* -- collectives ------------------------------------------------------------------------------------------ */
/* For MIN/MAX: per element, the rank whose value the reduction picked (the lowest such rank on ties). */
static int *owners(const void *values, int count, int size, enum Op op, MPI_Comm comm, const char *call) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int *owner = scratch(count, sizeof(int));
  if (size == 8) {
    struct { double v; int r; } *in = scratch(count, sizeof *in), *out = scratch(count, sizeof *out);
    for (int i = 0; i < count; i++) in[i].v = ((const double *)values)[i], in[i].r = rank;
    check(MPI_Allreduce(in, out, count, MPI_DOUBLE_INT, op == OP_MAX ? MPI_MAXLOC : MPI_MINLOC, comm), call);
    for (int i = 0; i < count; i++) owner[i] = out[i].r;
    free(in), free(out);
  } else {
    struct { float v; int r; } *in = scratch(count, sizeof *in), *out = scratch(count, sizeof *out);
    for (int i = 0; i < count; i++) in[i].v = ((const float *)values)[i], in[i].r = rank;
    check(MPI_Allreduce(in, out, count, MPI_FLOAT_INT, op == OP_MAX ? MPI_MAXLOC : MPI_MINLOC, comm), call);
    for (int i = 0; i < count; i++) owner[i] = out[i].r;
    free(in), free(out);
  }
  return owner;
}

/* A copy of the tangents/adjoints `d` (zeros if null), with the elements other ranks own zeroed. */
static void *masked(const void *d, int count, int size, const int *owner, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  void *m = scratch(count, size);
  if (d) memcpy(m, d, (size_t)count * (size_t)size);
  for (int i = 0; owner && i < count; i++)
    if (owner[i] != rank) memset((char *)m + (size_t)i * (size_t)size, 0, (size_t)size);
  return m;
}

HELPER int __pyenzyme_mpi_MPI_Allreduce_fwd(const void *sbuf, const void *dsbuf, void *rbuf, void *drbuf, int count,
                                            MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  int size = float_size(type, "MPI_Allreduce");
  enum Op kind = size ? op_of(op, "MPI_Allreduce") : OP_SUM;
  int in_place = sbuf == MPI_IN_PLACE;
  int *owner = NULL;
  if (size && kind != OP_SUM) owner = owners(in_place ? rbuf : sbuf, count, size, kind, comm, "MPI_Allreduce");
  check(MPI_Allreduce(sbuf, rbuf, count, type, op, comm), "MPI_Allreduce");
  if (size) {
    void *contribution = masked(in_place ? drbuf : dsbuf, count, size, owner, comm);
    void *t = drbuf ? NULL : scratch(count, size);
    check(MPI_Allreduce(contribution, drbuf ? drbuf : t, count, type, MPI_SUM, comm), "MPI_Allreduce");
    free(contribution), free(t), free(owner);
  }
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Reduce_fwd(const void *sbuf, const void *dsbuf, void *rbuf, void *drbuf, int count,
                                         MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  int size = float_size(type, "MPI_Reduce");
  enum Op kind = size ? op_of(op, "MPI_Reduce") : OP_SUM;
  int rank;
  MPI_Comm_rank(comm, &rank);
  int in_place = sbuf == MPI_IN_PLACE;
  int *owner = NULL;
  if (size && kind != OP_SUM) owner = owners(in_place ? rbuf : sbuf, count, size, kind, comm, "MPI_Reduce");
  check(MPI_Reduce(sbuf, rbuf, count, type, op, root, comm), "MPI_Reduce");
  if (size) {
    void *contribution = masked(in_place ? drbuf : dsbuf, count, size, owner, comm);
    void *t = rank == root && !drbuf ? scratch(count, size) : NULL;
    check(MPI_Reduce(contribution, rank == root ? (drbuf ? drbuf : t) : NULL, count, type, MPI_SUM, root, comm),
          "MPI_Reduce");
    free(contribution), free(t), free(owner);
  }
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Bcast_fwd(void *buf, void *dbuf, int count, MPI_Datatype type, int root,
                                        MPI_Comm comm) {
  float_size(type, "MPI_Bcast");
  check(MPI_Bcast(buf, count, type, root, comm), "MPI_Bcast");
  return __pyenzyme_mpi_MPI_Bcast_tan(buf, dbuf, count, type, root, comm);
}

/* ============================================ reverse mode ================================================ */
/* Blocking point-to-point: the primal call in the augmented sweep, the adjoint message in the reverse sweep. */
HELPER void *__pyenzyme_mpi_MPI_Send_aug(const void *buf, const void *dbuf, int count, MPI_Datatype type, int dest,
                                         int tag, MPI_Comm comm) {
  (void)dbuf;
  float_size(type, "MPI_Send");
  check(MPI_Send(buf, count, type, dest, tag, comm), "MPI_Send");
  return NULL;
}

HELPER void __pyenzyme_mpi_MPI_Send_rev(const void *buf, void *dbuf, int count, MPI_Datatype type, int dest, int tag,
                                        MPI_Comm comm, void *tape) {
  (void)buf, (void)tape;
  int size = float_size(type, "MPI_Send");
  if (!size) return;
  void *t = scratch(count, size);
  check(MPI_Recv(t, count, type, dest, tag, comm, MPI_STATUS_IGNORE), "MPI_Send");
  if (dbuf) add_into(dbuf, t, count, size);
  free(t);
}

HELPER void *__pyenzyme_mpi_MPI_Recv_aug(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                         MPI_Comm comm, MPI_Status *status) {
  (void)dbuf;
  if (float_size(type, "MPI_Recv")) no_wildcards(source, tag, "MPI_Recv");
  check(MPI_Recv(buf, count, type, source, tag, comm, status), "MPI_Recv");
  return NULL;
}

HELPER void __pyenzyme_mpi_MPI_Recv_rev(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                        MPI_Comm comm, MPI_Status *status, void *tape) {
  (void)buf, (void)status, (void)tape;
  int size = float_size(type, "MPI_Recv");
  if (!size) return;
  void *t = dbuf ? NULL : scratch(count, size);
  check(MPI_Send(dbuf ? dbuf : t, count, type, source, tag, comm), "MPI_Recv");
  zero(dbuf, count, size);
  free(t);
}

HELPER void *__pyenzyme_mpi_MPI_Sendrecv_aug(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                             int dest, int stag, void *rbuf, void *drbuf, int rcount,
                                             MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                             MPI_Status *status) {
  (void)dsbuf, (void)drbuf;
  float_size(stype, "MPI_Sendrecv");
  if (float_size(rtype, "MPI_Sendrecv")) no_wildcards(source, rtag, "MPI_Sendrecv");
  check(MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status),
        "MPI_Sendrecv");
  return NULL;
}

/* The adjoint of the received data goes back to `source`; the adjoint of the sent data comes from `dest`. */
HELPER void __pyenzyme_mpi_MPI_Sendrecv_rev(const void *sbuf, void *dsbuf, int scount, MPI_Datatype stype, int dest,
                                            int stag, void *rbuf, void *drbuf, int rcount, MPI_Datatype rtype,
                                            int source, int rtag, MPI_Comm comm, MPI_Status *status, void *tape) {
  (void)sbuf, (void)rbuf, (void)status, (void)tape;
  int ssize = float_size(stype, "MPI_Sendrecv"), rsize = float_size(rtype, "MPI_Sendrecv");
  void *incoming = ssize ? scratch(scount, ssize) : NULL;
  void *outgoing = rsize ? scratch(rcount, rsize) : NULL;
  if (rsize && drbuf) memcpy(outgoing, drbuf, (size_t)rcount * (size_t)rsize);
  if (ssize && rsize)
    check(MPI_Sendrecv(outgoing, rcount, rtype, source, rtag, incoming, scount, stype, dest, stag, comm,
                       MPI_STATUS_IGNORE), "MPI_Sendrecv");
  else if (rsize)
    check(MPI_Send(outgoing, rcount, rtype, source, rtag, comm), "MPI_Sendrecv");
  else if (ssize)
    check(MPI_Recv(incoming, scount, stype, dest, stag, comm, MPI_STATUS_IGNORE), "MPI_Sendrecv");
  if (rsize) zero(drbuf, rcount, rsize);  /* before adding: the buffers may overlap */
  if (ssize && dsbuf) add_into(dsbuf, incoming, scount, ssize);
  free(incoming), free(outgoing);
}

/* Non-blocking point-to-point. */
HELPER void *__pyenzyme_mpi_MPI_Isend_aug(const void *buf, const void *dbuf, int count, MPI_Datatype type, int dest,
                                          int tag, MPI_Comm comm, MPI_Request *request) {
  int size = float_size(type, "MPI_Isend");
  check(MPI_Isend(buf, count, type, dest, tag, comm, request), "MPI_Isend");
  if (!size) return NULL;
  Record *r = new_record(K_SEND, (void *)dbuf, count, size, type, dest, tag, comm);
  remember(request, r);
  return r;
}

HELPER void *__pyenzyme_mpi_MPI_Irecv_aug(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                          MPI_Comm comm, MPI_Request *request) {
  int size = float_size(type, "MPI_Irecv");
  if (size) no_wildcards(source, tag, "MPI_Irecv");
  check(MPI_Irecv(buf, count, type, source, tag, comm, request), "MPI_Irecv");
  if (!size) return NULL;
  Record *r = new_record(K_RECV, dbuf, count, size, type, source, tag, comm);
  remember(request, r);
  return r;
}

/* The adjoint of a completed request: an Isend's adjoint is received into scratch memory, an Irecv's adjoint (its
 * buffer's shadow) is sent back. */
static void start_adjoint(Record *r) {
  if (!r) return;
  r->temp = scratch(r->count, r->size);
  if (r->kind == K_SEND) {
    check(MPI_Irecv(r->temp, r->count, r->type, r->peer, r->tag, r->comm, &r->request), "MPI_Isend");
  } else {
    if (r->shadow) memcpy(r->temp, r->shadow, (size_t)r->count * (size_t)r->size);
    check(MPI_Isend(r->temp, r->count, r->type, r->peer, r->tag, r->comm, &r->request), "MPI_Irecv");
  }
  r->started = 1;
}

static void finish_adjoint(Record *r, const char *call) {
  if (!r) return;
  if (!r->started)
    refuse(call, "a request that no differentiated MPI_Wait or MPI_Waitall completed (wait for it in the "
                 "differentiated code)");
  check(MPI_Wait(&r->request, MPI_STATUS_IGNORE), call);
  if (r->kind == K_SEND && r->shadow) add_into(r->shadow, r->temp, r->count, r->size);
  if (r->kind == K_RECV) zero(r->shadow, r->count, r->size);
  free(r->temp);
  free(r);
}

HELPER void __pyenzyme_mpi_MPI_Isend_rev(const void *buf, void *dbuf, int count, MPI_Datatype type, int dest,
                                         int tag, MPI_Comm comm, MPI_Request *request, void *tape) {
  (void)buf, (void)dbuf, (void)count, (void)type, (void)dest, (void)tag, (void)comm, (void)request;
  finish_adjoint(tape, "MPI_Isend");
}

HELPER void __pyenzyme_mpi_MPI_Irecv_rev(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                         MPI_Comm comm, MPI_Request *request, void *tape) {
  (void)buf, (void)dbuf, (void)count, (void)type, (void)source, (void)tag, (void)comm, (void)request;
  finish_adjoint(tape, "MPI_Irecv");
}

HELPER void *__pyenzyme_mpi_MPI_Wait_aug(MPI_Request *request, MPI_Status *status) {
  Record *r = take(request);
  check(MPI_Wait(request, status), "MPI_Wait");
  return r;
}

HELPER void __pyenzyme_mpi_MPI_Wait_rev(MPI_Request *request, MPI_Status *status, void *tape) {
  (void)request, (void)status;
  start_adjoint(tape);
}

typedef struct { int count; Record *recs[]; } Records;

HELPER void *__pyenzyme_mpi_MPI_Waitall_aug(int count, MPI_Request *requests, MPI_Status *statuses) {
  Records *rs = scratch(1, (int)(sizeof(Records) + (size_t)(count > 0 ? count : 0) * sizeof(Record *)));
  rs->count = count;
  for (int i = 0; i < count; i++) rs->recs[i] = take(&requests[i]);
  check(MPI_Waitall(count, requests, statuses), "MPI_Waitall");
  return rs;
}

HELPER void __pyenzyme_mpi_MPI_Waitall_rev(int count, MPI_Request *requests, MPI_Status *statuses, void *tape) {
  (void)count, (void)requests, (void)statuses;
  Records *rs = tape;
  for (int i = 0; i < rs->count; i++) start_adjoint(rs->recs[i]);
  free(rs);
}

/* Collectives. */
typedef struct { int *owner; } ReduceTape;

HELPER void *__pyenzyme_mpi_MPI_Allreduce_aug(const void *sbuf, const void *dsbuf, void *rbuf, void *drbuf,
                                              int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  (void)dsbuf, (void)drbuf;
  int size = float_size(type, "MPI_Allreduce");
  enum Op kind = size ? op_of(op, "MPI_Allreduce") : OP_SUM;
  int *owner = NULL;
  if (size && kind != OP_SUM)
    owner = owners(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, size, kind, comm, "MPI_Allreduce");
  check(MPI_Allreduce(sbuf, rbuf, count, type, op, comm), "MPI_Allreduce");
  return owner;
}

/* y = op(x over ranks) on every rank: each rank's adjoint of x gets the sum over ranks of the adjoints of y (for
 * MIN/MAX only the rank that supplied the element). */
HELPER void __pyenzyme_mpi_MPI_Allreduce_rev(const void *sbuf, void *dsbuf, void *rbuf, void *drbuf, int count,
                                             MPI_Datatype type, MPI_Op op, MPI_Comm comm, void *tape) {
  (void)rbuf, (void)op;
  int size = float_size(type, "MPI_Allreduce");
  if (!size) return;
  int *owner = tape;
  void *sum = scratch(count, size);
  void *mine = scratch(count, size);
  if (drbuf) memcpy(mine, drbuf, (size_t)count * (size_t)size);
  check(MPI_Allreduce(mine, sum, count, type, MPI_SUM, comm), "MPI_Allreduce");
  zero(drbuf, count, size);
  void *target = sbuf == MPI_IN_PLACE ? drbuf : dsbuf;
  if (target) {
    void *m = masked(sum, count, size, owner, comm);
    add_into(target, m, count, size);
    free(m);
  }
  free(sum), free(mine), free(owner);
}

HELPER void *__pyenzyme_mpi_MPI_Reduce_aug(const void *sbuf, const void *dsbuf, void *rbuf, void *drbuf, int count,
                                           MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  (void)dsbuf, (void)drbuf;
  int size = float_size(type, "MPI_Reduce");
  enum Op kind = size ? op_of(op, "MPI_Reduce") : OP_SUM;
  int *owner = NULL;
  if (size && kind != OP_SUM)
    owner = owners(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, size, kind, comm, "MPI_Reduce");
  check(MPI_Reduce(sbuf, rbuf, count, type, op, root, comm), "MPI_Reduce");
  return owner;
}

/* y = op(x over ranks) at the root: the root's adjoint of y, broadcast, is every rank's adjoint of x. */
HELPER void __pyenzyme_mpi_MPI_Reduce_rev(const void *sbuf, void *dsbuf, void *rbuf, void *drbuf, int count,
                                          MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, void *tape) {
  (void)rbuf, (void)op;
  int size = float_size(type, "MPI_Reduce");
  if (!size) return;
  int rank;
  MPI_Comm_rank(comm, &rank);
  int *owner = tape;
  void *seed = scratch(count, size);
  if (rank == root && drbuf) {
    memcpy(seed, drbuf, (size_t)count * (size_t)size);
    zero(drbuf, count, size);
  }
  check(MPI_Bcast(seed, count, type, root, comm), "MPI_Reduce");
  void *target = sbuf == MPI_IN_PLACE ? (rank == root ? drbuf : NULL) : dsbuf;
  if (target) {
    void *m = masked(seed, count, size, owner, comm);
    add_into(target, m, count, size);
    free(m);
  }
  free(seed), free(owner);
}

HELPER void *__pyenzyme_mpi_MPI_Bcast_aug(void *buf, void *dbuf, int count, MPI_Datatype type, int root,
                                          MPI_Comm comm) {
  (void)dbuf;
  float_size(type, "MPI_Bcast");
  check(MPI_Bcast(buf, count, type, root, comm), "MPI_Bcast");
  return NULL;
}

/* The root's buffer is read, the others' overwritten: the root's adjoint gets the sum of all adjoints, the others'
 * are zeroed. */
HELPER void __pyenzyme_mpi_MPI_Bcast_rev(void *buf, void *dbuf, int count, MPI_Datatype type, int root,
                                         MPI_Comm comm, void *tape) {
  (void)buf, (void)tape;
  int size = float_size(type, "MPI_Bcast");
  if (!size) return;
  int rank;
  MPI_Comm_rank(comm, &rank);
  void *mine = scratch(count, size);
  if (dbuf) memcpy(mine, dbuf, (size_t)count * (size_t)size);
  void *sum = rank == root ? scratch(count, size) : NULL;
  check(MPI_Reduce(mine, sum, count, type, MPI_SUM, root, comm), "MPI_Bcast");
  if (rank == root && dbuf) memcpy(dbuf, sum, (size_t)count * (size_t)size);
  else zero(dbuf, count, size);
  free(mine), free(sum);
}

/* All-to-all: block j of each rank's send buffer becomes block (sender's rank) of rank j's receive buffer, a
 * permutation of data between ranks.  Forward: the tangents take the same permutation.  Reverse: the adjoints of
 * the receive buffers travel back by the inverse permutation (an all-to-all with the roles of send and receive
 * swapped), are added into the send buffers' adjoints, and the receive buffers' adjoints are zeroed.  With
 * MPI_IN_PLACE the receive buffer is both. */
static int comm_size(MPI_Comm comm) {
  int n;
  MPI_Comm_size(comm, &n);
  return n;
}

/* Elements a v-collective's buffer spans (largest displacement + count). */
static int extent(const int *counts, const int *displs, int n) {
  int e = 0;
  for (int i = 0; i < n; i++)
    if (counts[i] > 0 && displs[i] + counts[i] > e) e = displs[i] + counts[i];
  return e;
}

static void check_same_kind(int ssize, int rsize, const char *call) {
  if (ssize != rsize)
    refuse(call, "different send and receive datatypes (one carries derivatives, the other does not)");
}

HELPER int __pyenzyme_mpi_MPI_Alltoall_fwd(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                           void *rbuf, void *drbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  int in_place = sbuf == MPI_IN_PLACE;
  int rsize = float_size(rtype, "MPI_Alltoall");
  if (!in_place) check_same_kind(float_size(stype, "MPI_Alltoall"), rsize, "MPI_Alltoall");
  check(MPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm), "MPI_Alltoall");
  if (!rsize) return MPI_SUCCESS;
  int n = comm_size(comm);
  void *ts = !in_place && !dsbuf ? scratch(scount * n, rsize) : NULL;
  void *tr = !drbuf ? scratch(rcount * n, rsize) : NULL;
  check(MPI_Alltoall(in_place ? MPI_IN_PLACE : dsbuf ? dsbuf : ts, scount, stype, drbuf ? drbuf : tr, rcount, rtype,
                     comm), "MPI_Alltoall");
  free(ts), free(tr);
  return MPI_SUCCESS;
}

HELPER void *__pyenzyme_mpi_MPI_Alltoall_aug(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                             void *rbuf, void *drbuf, int rcount, MPI_Datatype rtype,
                                             MPI_Comm comm) {
  (void)dsbuf, (void)drbuf;
  int rsize = float_size(rtype, "MPI_Alltoall");
  if (sbuf != MPI_IN_PLACE) check_same_kind(float_size(stype, "MPI_Alltoall"), rsize, "MPI_Alltoall");
  check(MPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm), "MPI_Alltoall");
  return NULL;
}

HELPER void __pyenzyme_mpi_MPI_Alltoall_rev(const void *sbuf, void *dsbuf, int scount, MPI_Datatype stype,
                                            void *rbuf, void *drbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                                            void *tape) {
  (void)rbuf, (void)tape;
  int size = float_size(rtype, "MPI_Alltoall");
  if (!size) return;
  int n = comm_size(comm), in_place = sbuf == MPI_IN_PLACE;
  if (in_place) scount = rcount, stype = rtype;
  void *out = scratch(rcount * n, size), *back = scratch(scount * n, size);
  if (drbuf) memcpy(out, drbuf, (size_t)rcount * (size_t)n * (size_t)size);
  check(MPI_Alltoall(out, rcount, rtype, back, scount, stype, comm), "MPI_Alltoall");
  zero(drbuf, rcount * n, size);  /* before adding: in place, the receive buffer is the send buffer */
  void *target = in_place ? drbuf : dsbuf;
  if (target) add_into(target, back, scount * n, size);
  free(out), free(back);
}

HELPER int __pyenzyme_mpi_MPI_Alltoallv_fwd(const void *sbuf, const void *dsbuf, const int *scounts,
                                            const int *sdispls, MPI_Datatype stype, void *rbuf, void *drbuf,
                                            const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                                            MPI_Comm comm) {
  int in_place = sbuf == MPI_IN_PLACE;
  int rsize = float_size(rtype, "MPI_Alltoallv");
  if (!in_place) check_same_kind(float_size(stype, "MPI_Alltoallv"), rsize, "MPI_Alltoallv");
  check(MPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), "MPI_Alltoallv");
  if (!rsize) return MPI_SUCCESS;
  int n = comm_size(comm);
  void *ts = !in_place && !dsbuf ? scratch(extent(scounts, sdispls, n), rsize) : NULL;
  void *tr = !drbuf ? scratch(extent(rcounts, rdispls, n), rsize) : NULL;
  check(MPI_Alltoallv(in_place ? MPI_IN_PLACE : dsbuf ? dsbuf : ts, scounts, sdispls, stype, drbuf ? drbuf : tr,
                      rcounts, rdispls, rtype, comm), "MPI_Alltoallv");
  free(ts), free(tr);
  return MPI_SUCCESS;
}

HELPER void *__pyenzyme_mpi_MPI_Alltoallv_aug(const void *sbuf, const void *dsbuf, const int *scounts,
                                              const int *sdispls, MPI_Datatype stype, void *rbuf, void *drbuf,
                                              const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                                              MPI_Comm comm) {
  (void)dsbuf, (void)drbuf;
  int rsize = float_size(rtype, "MPI_Alltoallv");
  if (sbuf != MPI_IN_PLACE) check_same_kind(float_size(stype, "MPI_Alltoallv"), rsize, "MPI_Alltoallv");
  check(MPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), "MPI_Alltoallv");
  return NULL;
}

/* The counts and displacements are read again in the reverse sweep: the program must not have changed them
 * (as for any integer operand the reverse sweep uses). */
HELPER void __pyenzyme_mpi_MPI_Alltoallv_rev(const void *sbuf, void *dsbuf, const int *scounts, const int *sdispls,
                                             MPI_Datatype stype, void *rbuf, void *drbuf, const int *rcounts,
                                             const int *rdispls, MPI_Datatype rtype, MPI_Comm comm, void *tape) {
  (void)rbuf, (void)tape;
  int size = float_size(rtype, "MPI_Alltoallv");
  if (!size) return;
  int n = comm_size(comm), in_place = sbuf == MPI_IN_PLACE;
  if (in_place) scounts = rcounts, sdispls = rdispls, stype = rtype;
  int rext = extent(rcounts, rdispls, n), sext = extent(scounts, sdispls, n);
  void *out = scratch(rext, size), *back = scratch(sext, size);
  if (drbuf) memcpy(out, drbuf, (size_t)rext * (size_t)size);
  check(MPI_Alltoallv(out, rcounts, rdispls, rtype, back, scounts, sdispls, stype, comm), "MPI_Alltoallv");
  /* zero only the received blocks, then add back only the sent blocks (gaps between blocks keep their adjoint) */
  for (int i = 0; drbuf && i < n; i++) zero((char *)drbuf + (size_t)rdispls[i] * (size_t)size, rcounts[i], size);
  void *target = in_place ? drbuf : dsbuf;
  for (int i = 0; target && i < n; i++)
    add_into((char *)target + (size_t)sdispls[i] * (size_t)size, (char *)back + (size_t)sdispls[i] * (size_t)size,
             scounts[i], size);
  free(out), free(back);
}

/* ================================= forward mode, more than one direction ================================== */
/* With enzyme_width W > 1 the engine calls ..._fwd for the primal and the first direction, then ..._tan for each
 * further direction: the tangents' communication alone, after the primal one (every rank makes the same calls in
 * the same order).  The rank that supplied a MIN/MAX element is found again from the send buffer, which an
 * MPI_IN_PLACE reduction has overwritten: that case is refused. */
static int *tan_owners(const void *sbuf, int count, int size, MPI_Op op, MPI_Comm comm, const char *call) {
  enum Op kind = op_of(op, call);
  if (kind == OP_SUM) return NULL;
  if (sbuf == MPI_IN_PLACE)
    refuse(call, "MPI_MIN/MPI_MAX with MPI_IN_PLACE in forward mode with more than one direction (enzyme_width)");
  return owners(sbuf, count, size, kind, comm, call);
}

HELPER int __pyenzyme_mpi_MPI_Send_tan(const void *buf, const void *dbuf, int count, MPI_Datatype type, int dest,
                                       int tag, MPI_Comm comm) {
  (void)buf;
  int size = float_size(type, "MPI_Send");
  if (size) {
    void *t = dbuf ? NULL : scratch(count, size);
    check(MPI_Send(dbuf ? dbuf : t, count, type, dest, tag, comm), "MPI_Send");
    free(t);
  }
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Recv_tan(void *buf, void *dbuf, int count, MPI_Datatype type, int source, int tag,
                                       MPI_Comm comm, MPI_Status *status) {
  (void)buf, (void)status;
  int size = float_size(type, "MPI_Recv");
  if (size) {
    void *t = dbuf ? NULL : scratch(count, size);
    check(MPI_Recv(dbuf ? dbuf : t, count, type, source, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
    free(t);
  }
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Sendrecv_tan(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                           int dest, int stag, void *rbuf, void *drbuf, int rcount,
                                           MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                           MPI_Status *status) {
  (void)sbuf, (void)rbuf, (void)status;
  int ssize = float_size(stype, "MPI_Sendrecv"), rsize = float_size(rtype, "MPI_Sendrecv");
  void *ts = ssize && !dsbuf ? scratch(scount, ssize) : NULL;
  void *tr = rsize && !drbuf ? scratch(rcount, rsize) : NULL;
  if (ssize && rsize)
    check(MPI_Sendrecv(dsbuf ? dsbuf : ts, scount, stype, dest, stag, drbuf ? drbuf : tr, rcount, rtype, source,
                       rtag, comm, MPI_STATUS_IGNORE), "MPI_Sendrecv");
  else if (ssize)
    check(MPI_Send(dsbuf ? dsbuf : ts, scount, stype, dest, stag, comm), "MPI_Sendrecv");
  else if (rsize)
    check(MPI_Recv(drbuf ? drbuf : tr, rcount, rtype, source, rtag, comm, MPI_STATUS_IGNORE), "MPI_Sendrecv");
  free(ts), free(tr);
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Allreduce_tan(const void *sbuf, const void *dsbuf, void *rbuf, void *drbuf, int count,
                                            MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  (void)rbuf;
  int size = float_size(type, "MPI_Allreduce");
  if (!size) return MPI_SUCCESS;
  int *owner = tan_owners(sbuf, count, size, op, comm, "MPI_Allreduce");
  void *contribution = masked(sbuf == MPI_IN_PLACE ? drbuf : dsbuf, count, size, owner, comm);
  void *t = drbuf ? NULL : scratch(count, size);
  check(MPI_Allreduce(contribution, drbuf ? drbuf : t, count, type, MPI_SUM, comm), "MPI_Allreduce");
  free(contribution), free(t), free(owner);
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Reduce_tan(const void *sbuf, const void *dsbuf, void *rbuf, void *drbuf, int count,
                                         MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  (void)rbuf;
  int size = float_size(type, "MPI_Reduce");
  if (!size) return MPI_SUCCESS;
  int rank;
  MPI_Comm_rank(comm, &rank);
  int *owner = tan_owners(sbuf, count, size, op, comm, "MPI_Reduce");
  void *contribution = masked(sbuf == MPI_IN_PLACE ? drbuf : dsbuf, count, size, owner, comm);
  void *t = rank == root && !drbuf ? scratch(count, size) : NULL;
  check(MPI_Reduce(contribution, rank == root ? (drbuf ? drbuf : t) : NULL, count, type, MPI_SUM, root, comm),
        "MPI_Reduce");
  free(contribution), free(t), free(owner);
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Bcast_tan(void *buf, void *dbuf, int count, MPI_Datatype type, int root,
                                        MPI_Comm comm) {
  (void)buf;
  int size = float_size(type, "MPI_Bcast");
  if (size) {
    void *t = dbuf ? NULL : scratch(count, size);
    check(MPI_Bcast(dbuf ? dbuf : t, count, type, root, comm), "MPI_Bcast");
    free(t);
  }
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Alltoall_tan(const void *sbuf, const void *dsbuf, int scount, MPI_Datatype stype,
                                           void *rbuf, void *drbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  (void)rbuf;
  int in_place = sbuf == MPI_IN_PLACE, rsize = float_size(rtype, "MPI_Alltoall");
  if (!rsize) return MPI_SUCCESS;
  int n = comm_size(comm);
  void *ts = !in_place && !dsbuf ? scratch(scount * n, rsize) : NULL;
  void *tr = !drbuf ? scratch(rcount * n, rsize) : NULL;
  check(MPI_Alltoall(in_place ? MPI_IN_PLACE : dsbuf ? dsbuf : ts, scount, stype, drbuf ? drbuf : tr, rcount, rtype,
                     comm), "MPI_Alltoall");
  free(ts), free(tr);
  return MPI_SUCCESS;
}

HELPER int __pyenzyme_mpi_MPI_Alltoallv_tan(const void *sbuf, const void *dsbuf, const int *scounts,
                                            const int *sdispls, MPI_Datatype stype, void *rbuf, void *drbuf,
                                            const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                                            MPI_Comm comm) {
  (void)rbuf;
  int in_place = sbuf == MPI_IN_PLACE, rsize = float_size(rtype, "MPI_Alltoallv");
  if (!rsize) return MPI_SUCCESS;
  int n = comm_size(comm);
  void *ts = !in_place && !dsbuf ? scratch(extent(scounts, sdispls, n), rsize) : NULL;
  void *tr = !drbuf ? scratch(extent(rcounts, rdispls, n), rsize) : NULL;
  check(MPI_Alltoallv(in_place ? MPI_IN_PLACE : dsbuf ? dsbuf : ts, scounts, sdispls, stype, drbuf ? drbuf : tr,
                      rcounts, rdispls, rtype, comm), "MPI_Alltoallv");
  free(ts), free(tr);
  return MPI_SUCCESS;
}
