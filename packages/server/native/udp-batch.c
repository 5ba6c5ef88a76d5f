/*
 * A UDP socket read and written in batches, for the DNS responder (issue 39): one recvmmsg(2)
 * takes up to BATCH datagrams, JavaScript answers them all in one call, and one sendmmsg(2)
 * sends the answers. Node's dgram makes one system call, one callback into JavaScript and one
 * address object per datagram; at 100,000 queries a second those were most of a query's cost.
 *
 * This file only moves bytes: it never reads a datagram's content. The datagrams and their
 * senders are written into memory JavaScript reads (the slots below); JavaScript decides every
 * answer and writes it into the answer slots, with its length. A datagram longer than a slot
 * is dropped (MSG_TRUNC): no DNS query over UDP is that long.
 *
 * Slots, shared with JavaScript as ArrayBuffers owned here:
 *   queries  BATCH x QUERY_SLOT bytes      the datagrams, each at i * QUERY_SLOT
 *   senders  BATCH x 32 int32              length, family (4 or 6), port, the address's text
 *                                          length, its 16 bytes (an IPv4 address in the first 4),
 *                                          its IPv6 scope (0 but for link-local), then at byte 36
 *                                          its text as Node's dgram gives it: inet_ntop(3), and
 *                                          for a scope `%` and the interface's name
 *   answers  BATCH x ANSWER_SLOT bytes     JavaScript's answer to query i, at i * ANSWER_SLOT (a
 *                                          longer one goes by sendTo)
 *   lengths  BATCH int32                   its length; 0: no answer
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8 /* napi_add_async_cleanup_hook */
#include <arpa/inet.h>
#include <net/if.h>
#include <stdio.h>
#include <errno.h>
#include <netinet/in.h>
#include <node_api.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#define BATCH 64
#define QUERY_SLOT 4096
#define ANSWER_SLOT 4096
#define SENDER_INTS 32
#define SENDER_TEXT 36
/* Batches read per wake-up before the loop gets a turn (the thread's other work: loads,
   invalidations, TCP). */
#define BATCHES_PER_WAKE 8

typedef struct {
  int fd;
  int family;
  uv_poll_t poll;
  napi_env env;
  napi_ref self;        /* the JavaScript object, kept while the socket is open */
  napi_ref on_batch;    /* (count) => void */
  napi_async_context async;
  int closing;
  int torn_down; /* the thread's environment is ending: no more calls into JavaScript */
  napi_async_cleanup_hook_handle teardown;
  unsigned char *queries;
  int32_t *senders;
  unsigned char *answers;
  int32_t *lengths;
  struct mmsghdr in[BATCH];
  struct iovec in_iov[BATCH];
  struct sockaddr_storage from[BATCH];
  struct mmsghdr out[BATCH];
  struct iovec out_iov[BATCH];
} udp_socket;

static void on_teardown(napi_async_cleanup_hook_handle handle, void *arg);

#define CHECK(call)                                                         \
  do {                                                                      \
    if ((call) != napi_ok) {                                                \
      napi_throw_error(env, NULL, "udp-batch: " #call " failed");          \
      return NULL;                                                          \
    }                                                                       \
  } while (0)

/* Throws an Error with `syscall` and `errno` (positive); udp-batch.ts words it as Node's own. */
static napi_value throw_errno(napi_env env, const char *syscall, int error) {
  napi_value text, exception, name, number;
  napi_create_string_utf8(env, strerror(error), NAPI_AUTO_LENGTH, &text);
  napi_create_error(env, NULL, text, &exception);
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &name);
  napi_set_named_property(env, exception, "syscall", name);
  napi_create_int32(env, error, &number);
  napi_set_named_property(env, exception, "errno", number);
  napi_throw(env, exception);
  return NULL;
}

/* Writes the sender of datagram i into its slot. */
static void write_sender(udp_socket *s, int i, int length) {
  int32_t *slot = s->senders + i * SENDER_INTS;
  char *text = (char *)slot + SENDER_TEXT;
  size_t room = SENDER_INTS * sizeof(int32_t) - SENDER_TEXT;
  slot[0] = length;
  memset(slot + 4, 0, 16);
  if (s->from[i].ss_family == AF_INET6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&s->from[i];
    slot[1] = 6;
    slot[2] = ntohs(a->sin6_port);
    memcpy(slot + 4, &a->sin6_addr, 16);
    slot[8] = (int32_t)a->sin6_scope_id;
    if (!inet_ntop(AF_INET6, &a->sin6_addr, text, room)) text[0] = 0;
    if (a->sin6_scope_id != 0) {
      /* as libuv names it for dgram: the interface's name, else its number */
      char name[IF_NAMESIZE];
      size_t used = strlen(text);
      if (if_indextoname(a->sin6_scope_id, name))
        snprintf(text + used, room - used, "%%%s", name);
      else
        snprintf(text + used, room - used, "%%%u", a->sin6_scope_id);
    }
    slot[3] = (int32_t)strlen(text);
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&s->from[i];
    slot[1] = 4;
    slot[2] = ntohs(a->sin_port);
    memcpy(slot + 4, &a->sin_addr, 4);
    slot[8] = 0;
    slot[3] = inet_ntop(AF_INET, &a->sin_addr, text, room) ? (int32_t)strlen(text) : 0;
  }
}

/* Sends the answers JavaScript wrote for datagrams 0..count-1, each to its sender. */
static void send_answers(udp_socket *s, int count) {
  int n = 0;
  for (int i = 0; i < count; i++) {
    int32_t length = s->lengths[i];
    if (length <= 0 || length > ANSWER_SLOT) continue;
    s->out_iov[n].iov_base = s->answers + (size_t)i * ANSWER_SLOT;
    s->out_iov[n].iov_len = (size_t)length;
    memset(&s->out[n].msg_hdr, 0, sizeof s->out[n].msg_hdr);
    s->out[n].msg_hdr.msg_iov = &s->out_iov[n];
    s->out[n].msg_hdr.msg_iovlen = 1;
    s->out[n].msg_hdr.msg_name = &s->from[i];
    s->out[n].msg_hdr.msg_namelen = s->in[i].msg_hdr.msg_namelen;
    n++;
  }
  int sent = 0;
  while (sent < n) {
    int r = sendmmsg(s->fd, s->out + sent, (unsigned)(n - sent), MSG_DONTWAIT);
    if (r > 0) sent += r;
    else if (r < 0 && errno == EINTR) continue;
    /* the first unsent one failed (a full buffer, an unreachable sender): skip it, as a lost
       datagram, and send the rest */
    else sent++;
  }
}

static void on_readable(uv_poll_t *handle, int status, int events) {
  udp_socket *s = handle->data;
  if (status < 0 || s->closing || !(events & UV_READABLE)) return;
  napi_env env = s->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return;
  napi_value self, callback;
  napi_get_reference_value(env, s->self, &self);
  napi_get_reference_value(env, s->on_batch, &callback);
  for (int batch = 0; batch < BATCHES_PER_WAKE && !s->closing; batch++) {
    for (int i = 0; i < BATCH; i++) s->in[i].msg_hdr.msg_namelen = sizeof s->from[i];
    int n = recvmmsg(s->fd, s->in, BATCH, MSG_DONTWAIT, NULL);
    if (n < 0) {
      /* ECONNREFUSED and the like: an ICMP error for an earlier answer; read on */
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR || errno == ECONNREFUSED || errno == EHOSTUNREACH || errno == ENETUNREACH) continue;
      break;
    }
    if (n == 0) break;
    int kept = 0;
    for (int i = 0; i < n; i++) {
      if (s->in[i].msg_hdr.msg_flags & MSG_TRUNC) continue;
      if (kept != i) {
        memmove(s->queries + (size_t)kept * QUERY_SLOT, s->queries + (size_t)i * QUERY_SLOT, s->in[i].msg_len);
        s->from[kept] = s->from[i];
        s->in[kept].msg_hdr.msg_namelen = s->in[i].msg_hdr.msg_namelen;
      }
      write_sender(s, kept, (int)s->in[i].msg_len);
      s->lengths[kept] = 0;
      kept++;
    }
    if (kept > 0) {
      napi_value count, result;
      napi_create_int32(env, kept, &count);
      napi_callback_scope callback_scope;
      napi_value resource;
      napi_get_reference_value(env, s->self, &resource);
      /* a callback scope, so that promises JavaScript settles run before the next batch */
      napi_open_callback_scope(env, resource, s->async, &callback_scope);
      napi_status status_call = napi_call_function(env, self, callback, 1, &count, &result);
      napi_close_callback_scope(env, callback_scope);
      /* the answers written before an exception still go; the rest of the batch gets none */
      send_answers(s, kept);
      if (status_call != napi_ok) {
        /* an exception in the callback: raise it as Node would for an event handler */
        bool pending = false;
        napi_is_exception_pending(env, &pending);
        if (pending) {
          napi_value error;
          napi_get_and_clear_last_exception(env, &error);
          napi_fatal_exception(env, error);
        }
        break;
      }
    }
    if (n < BATCH) break;
  }
  napi_close_handle_scope(env, scope);
}

static void on_closed(uv_handle_t *handle) {
  udp_socket *s = handle->data;
  napi_env env = s->env;
  /* the environment, if it is ending, may go on once this handle is closed */
  napi_remove_async_cleanup_hook(s->teardown);
  if (s->torn_down) {
    /* JavaScript is going away with the environment: only memory is ours to free */
    free(s);
    return;
  }
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) == napi_ok) {
    /* the object may outlive this: unwrapped, a later call finds no socket */
    napi_value self;
    if (napi_get_reference_value(env, s->self, &self) == napi_ok && self != NULL)
      napi_remove_wrap(env, self, NULL);
    napi_close_handle_scope(env, scope);
  }
  napi_delete_reference(env, s->on_batch);
  napi_async_destroy(env, s->async);
  napi_delete_reference(env, s->self);
  /* the slots are freed with the ArrayBuffers that show them (their finalizers) */
  free(s);
}

static void free_slot(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

static napi_value external_buffer(napi_env env, void *data, size_t length) {
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, data, length, free_slot, NULL, &buffer) != napi_ok) return NULL;
  return buffer;
}

/* open(host: string, port: number, onBatch: (count) => void) => socket object */
static napi_value open_socket(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], self;
  CHECK(napi_get_cb_info(env, info, &argc, argv, &self, NULL));
  char host[64];
  size_t host_length;
  int32_t port;
  CHECK(napi_get_value_string_utf8(env, argv[0], host, sizeof host, &host_length));
  CHECK(napi_get_value_int32(env, argv[1], &port));
  if (port < 0 || port > 65535) {
    napi_throw_range_error(env, NULL, "udp-batch: port out of range");
    return NULL;
  }
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  socklen_t address_length;
  int family;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&address;
  struct sockaddr_in *a4 = (struct sockaddr_in *)&address;
  if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    address_length = sizeof *a4;
    family = AF_INET;
  } else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
    a6->sin6_family = AF_INET6;
    a6->sin6_port = htons((uint16_t)port);
    address_length = sizeof *a6;
    family = AF_INET6;
  } else {
    napi_throw_type_error(env, NULL, "udp-batch: the host must be an IP address");
    return NULL;
  }
  int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "socket", errno);
  if (family == AF_INET6) {
    int only = 1; /* as dgram's ipv6Only: IPv4 clients come on an IPv4 socket */
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only);
  }
  if (bind(fd, (struct sockaddr *)&address, address_length) < 0) {
    int error = errno;
    close(fd);
    return throw_errno(env, "bind", error);
  }
  socklen_t bound_length = sizeof address;
  getsockname(fd, (struct sockaddr *)&address, &bound_length);
  int bound_port = ntohs(family == AF_INET6 ? a6->sin6_port : a4->sin_port);

  udp_socket *s = calloc(1, sizeof *s);
  unsigned char *queries = malloc((size_t)BATCH * QUERY_SLOT);
  int32_t *senders = calloc(BATCH * SENDER_INTS, sizeof(int32_t));
  unsigned char *answers = malloc((size_t)BATCH * ANSWER_SLOT);
  int32_t *lengths = calloc(BATCH, sizeof(int32_t));
  if (!s || !queries || !senders || !answers || !lengths) {
    free(s), free(queries), free(senders), free(answers), free(lengths);
    close(fd);
    return throw_errno(env, "udp-batch", ENOMEM);
  }
  s->fd = fd;
  s->family = family;
  s->env = env;
  s->queries = queries;
  s->senders = senders;
  s->answers = answers;
  s->lengths = lengths;
  for (int i = 0; i < BATCH; i++) {
    s->in_iov[i].iov_base = queries + (size_t)i * QUERY_SLOT;
    s->in_iov[i].iov_len = QUERY_SLOT;
    s->in[i].msg_hdr.msg_iov = &s->in_iov[i];
    s->in[i].msg_hdr.msg_iovlen = 1;
    s->in[i].msg_hdr.msg_name = &s->from[i];
  }

  napi_value object, value, name;
  CHECK(napi_create_object(env, &object));
  CHECK(napi_create_int32(env, bound_port, &value));
  CHECK(napi_set_named_property(env, object, "port", value));
  napi_value buffers[4] = {
      external_buffer(env, queries, (size_t)BATCH * QUERY_SLOT),
      external_buffer(env, senders, BATCH * SENDER_INTS * sizeof(int32_t)),
      external_buffer(env, answers, (size_t)BATCH * ANSWER_SLOT),
      external_buffer(env, lengths, BATCH * sizeof(int32_t)),
  };
  const char *names[4] = {"queries", "senders", "answers", "lengths"};
  for (int i = 0; i < 4; i++) {
    if (!buffers[i]) return NULL;
    CHECK(napi_set_named_property(env, object, names[i], buffers[i]));
  }
  CHECK(napi_wrap(env, object, s, NULL, NULL, NULL));
  CHECK(napi_create_reference(env, object, 1, &s->self));
  CHECK(napi_create_reference(env, argv[2], 1, &s->on_batch));
  CHECK(napi_create_string_utf8(env, "udp-batch", NAPI_AUTO_LENGTH, &name));
  CHECK(napi_async_init(env, object, name, &s->async));

  uv_loop_t *loop;
  CHECK(napi_get_uv_event_loop(env, &loop));
  uv_poll_init(loop, &s->poll, fd);
  s->poll.data = s;
  uv_poll_start(&s->poll, UV_READABLE, on_readable);
  CHECK(napi_add_async_cleanup_hook(env, on_teardown, s, &s->teardown));
  return object;
}

static udp_socket *unwrap(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  napi_value self;
  void *data = NULL;
  if (napi_get_cb_info(env, info, argc, argv, &self, NULL) != napi_ok) return NULL;
  if (*argc < 1 || napi_unwrap(env, argv[0], &data) != napi_ok) {
    napi_throw_type_error(env, NULL, "udp-batch: not a socket");
    return NULL;
  }
  return data;
}

/* sendTo(socket, answer: Uint8Array, host: string, port): an answer written later than its
   batch (one that waited for a load), or longer than its slot */
static napi_value send_to(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  udp_socket *s = unwrap(env, info, &argc, argv);
  if (!s || s->closing) return NULL;
  void *data;
  size_t length, host_length;
  char host[64];
  int32_t port;
  CHECK(napi_get_typedarray_info(env, argv[1], NULL, &length, &data, NULL, NULL));
  CHECK(napi_get_value_string_utf8(env, argv[2], host, sizeof host, &host_length));
  CHECK(napi_get_value_int32(env, argv[3], &port));
  struct sockaddr_storage to;
  memset(&to, 0, sizeof to);
  socklen_t to_length;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&to;
  struct sockaddr_in *a4 = (struct sockaddr_in *)&to;
  /* a link-local sender's scope, as write_sender wrote it: `%` and an interface's name or number */
  char *scope = strchr(host, '%');
  if (scope != NULL) {
    *scope++ = 0;
    a6->sin6_scope_id = if_nametoindex(scope);
    if (a6->sin6_scope_id == 0) a6->sin6_scope_id = (uint32_t)strtoul(scope, NULL, 10);
  }
  if (s->family == AF_INET6 && inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
    a6->sin6_family = AF_INET6;
    a6->sin6_port = htons((uint16_t)port);
    to_length = sizeof *a6;
  } else if (s->family == AF_INET && inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    to_length = sizeof *a4;
  } else {
    napi_throw_type_error(env, NULL, "udp-batch: not an address of the socket's family");
    return NULL;
  }
  /* lost like any datagram when the buffer is full or the sender unreachable */
  sendto(s->fd, data, length, MSG_DONTWAIT, (struct sockaddr *)&to, to_length);
  return NULL;
}

/* Stops reading and closes the descriptor now (the port is free when this returns); the rest
   is freed once libuv lets go of the handle. */
static void stop(udp_socket *s) {
  s->closing = 1;
  /* a stopped poll no longer watches the descriptor, which may then be closed (uv_poll_t) */
  uv_poll_stop(&s->poll);
  close(s->fd);
  s->fd = -1;
  uv_close((uv_handle_t *)&s->poll, on_closed);
}

/* The thread's environment ends before the socket's handle is closed (a worker terminated, the
   process exiting): Node closes the thread's loop once on_closed says the handle is gone, and
   aborts if a handle is left on it. */
static void on_teardown(napi_async_cleanup_hook_handle handle, void *arg) {
  (void)handle;
  udp_socket *s = arg;
  s->torn_down = 1;
  if (!s->closing) stop(s);
}

/* close(socket) */
static napi_value close_socket(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  udp_socket *s = unwrap(env, info, &argc, argv);
  if (!s || s->closing) return NULL;
  stop(s);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"open", NULL, open_socket, NULL, NULL, NULL, napi_default, NULL},
      {"sendTo", NULL, send_to, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, close_socket, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_value batch, query_slot, answer_slot, sender_ints, sender_text;
  napi_create_int32(env, SENDER_INTS, &sender_ints);
  napi_create_int32(env, SENDER_TEXT, &sender_text);
  napi_set_named_property(env, exports, "SENDER_INTS", sender_ints);
  napi_set_named_property(env, exports, "SENDER_TEXT", sender_text);
  napi_create_int32(env, BATCH, &batch);
  napi_create_int32(env, QUERY_SLOT, &query_slot);
  napi_create_int32(env, ANSWER_SLOT, &answer_slot);
  napi_set_named_property(env, exports, "BATCH", batch);
  napi_set_named_property(env, exports, "QUERY_SLOT", query_slot);
  napi_set_named_property(env, exports, "ANSWER_SLOT", answer_slot);
  if (napi_define_properties(env, exports, 3, properties) != napi_ok) return NULL;
  return exports;
}

#ifndef NODE_GYP_MODULE_NAME
#define NODE_GYP_MODULE_NAME udp_batch
#endif
NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
