// One closed-loop load generator for both of tandemd's SQL front ends, so
// that a ratio compares the servers and not two different clients: CLIENTS
// threads, each on one connection (libpq's simple query protocol for
// pgwire; one keep-alive HTTP/1.1 connection POSTing {"query": ...} to
// /api/sql), send a query, wait for the whole answer, check it, and repeat
// for SECONDS. KIND is `select1` (SELECT 1) or `point` (SELECT v FROM t
// WHERE k = <random key in 1..KEYS>, one row). Prints one line: mode kind
// clients requests per-second p50-us p99-us. bench/http_vs_pgwire.sh
// builds and runs it.
//
//   cc -O2 -I/usr/include/postgresql -o /tmp/http_vs_pgwire bench/http_vs_pgwire.c -lpq -lpthread
//   /tmp/http_vs_pgwire pg|http PORT CLIENTS SECONDS select1|point KEYS
#define _GNU_SOURCE  // strcasestr
#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { kMaxSamples = 1 << 20 };

static const char* mode;
static int port, clients, seconds, point, keys;
static double deadline;

struct Worker {
  pthread_t thread;
  unsigned seed;
  double* samples;  // microseconds
  long count;
};

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void fail(const char* what, const char* detail) {
  fprintf(stderr, "http_vs_pgwire: %s: %s\n", what, detail);
  exit(1);
}

static void query_text(struct Worker* w, char* out, size_t n) {
  if (point) snprintf(out, n, "SELECT v FROM t WHERE k = %d", 1 + (int)(rand_r(&w->seed) % (unsigned)keys));
  else snprintf(out, n, "SELECT 1");
}

static void record(struct Worker* w, double start) {
  if (w->count < kMaxSamples) w->samples[w->count] = now_us() - start;
  w->count++;
}

static void run_pg(struct Worker* w) {
  char conninfo[128], sql[128];
  snprintf(conninfo, sizeof conninfo, "host=127.0.0.1 port=%d user=materialize dbname=materialize", port);
  PGconn* conn = PQconnectdb(conninfo);
  if (PQstatus(conn) != CONNECTION_OK) fail("connect", PQerrorMessage(conn));
  while (now_us() < deadline) {
    query_text(w, sql, sizeof sql);
    double start = now_us();
    PGresult* r = PQexec(conn, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) fail("query", PQerrorMessage(conn));
    PQclear(r);
    record(w, start);
  }
  PQfinish(conn);
}

// Reads one response (Content-Length framed; /api/sql sends small results
// whole) into buf; returns the body.
static char* read_response(int fd, char* buf, size_t cap) {
  size_t have = 0;
  char* body = NULL;
  long length = -1;
  for (;;) {
    ssize_t n = read(fd, buf + have, cap - 1 - have);
    if (n <= 0) fail("read", "the server closed the connection");
    have += (size_t)n;
    buf[have] = 0;
    if (!body) {
      char* end = strstr(buf, "\r\n\r\n");
      if (!end) continue;
      body = end + 4;
      if (strncmp(buf, "HTTP/1.1 200", 12) != 0) fail("status", buf);
      char* cl = strcasestr(buf, "content-length:");
      if (!cl || cl > end) fail("response", "no Content-Length");
      length = strtol(cl + 15, NULL, 10);
    }
    if ((long)(buf + have - body) >= length) return body;
  }
}

static void run_http(struct Worker* w) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(fd, (struct sockaddr*)&addr, sizeof addr) != 0) fail("connect", "HTTP");
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  char sql[128], body[256], request[512], response[8192];
  while (now_us() < deadline) {
    query_text(w, sql, sizeof sql);
    int body_len = snprintf(body, sizeof body, "{\"query\":\"%s\"}", sql);
    int len = snprintf(request, sizeof request,
                       "POST /api/sql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       "Content-Length: %d\r\n\r\n%s", body_len, body);
    double start = now_us();
    if (write(fd, request, (size_t)len) != len) fail("write", "HTTP");
    char* answer = read_response(fd, response, sizeof response);
    if (!strstr(answer, "\"rows\":[[") || strstr(answer, "\"error\"")) fail("answer", answer);
    record(w, start);
  }
  close(fd);
}

static void* work(void* arg) {
  struct Worker* w = arg;
  if (strcmp(mode, "pg") == 0) run_pg(w);
  else run_http(w);
  return NULL;
}

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s pg|http PORT CLIENTS SECONDS select1|point KEYS\n", argv[0]);
    return 2;
  }
  mode = argv[1];
  port = atoi(argv[2]);
  clients = atoi(argv[3]);
  seconds = atoi(argv[4]);
  point = strcmp(argv[5], "point") == 0;
  keys = atoi(argv[6]);
  struct Worker* workers = calloc((size_t)clients, sizeof *workers);
  deadline = now_us() + seconds * 1e6;
  for (int i = 0; i < clients; i++) {
    workers[i].seed = 7919u * (unsigned)(i + 1);
    workers[i].samples = malloc(sizeof(double) * kMaxSamples);
    pthread_create(&workers[i].thread, NULL, work, &workers[i]);
  }
  long total = 0, kept = 0;
  for (int i = 0; i < clients; i++) {
    pthread_join(workers[i].thread, NULL);
    total += workers[i].count;
    kept += workers[i].count < kMaxSamples ? workers[i].count : kMaxSamples;
  }
  double* all = malloc(sizeof(double) * (size_t)(kept > 0 ? kept : 1));
  long k = 0;
  for (int i = 0; i < clients; i++) {
    long n = workers[i].count < kMaxSamples ? workers[i].count : kMaxSamples;
    memcpy(all + k, workers[i].samples, sizeof(double) * (size_t)n);
    k += n;
  }
  qsort(all, (size_t)kept, sizeof(double), compare);
  printf("%s %s %d %ld %.0f %.1f %.1f\n", mode, point ? "point" : "select1", clients, total,
         total / (double)seconds, kept ? all[kept / 2] : 0.0, kept ? all[kept * 99 / 100] : 0.0);
  return 0;
}
