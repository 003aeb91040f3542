/*
 * A Shades bot in C, written from shades_protocol.md alone: it reads the init
 * message, answers with an empty message, then each turn moves every shade of
 * its own one step towards the nearest human (or stays), never onto water, off
 * the map, or onto a square another of its shades takes this turn.
 *
 * Build: cc -O2 -o shades_bot examples/bots/c/shades_bot.c
 * Every message is lines of JSON ended by a line holding a single ".".
 * A small JSON reader is included: numbers, strings, arrays, objects,
 * true/false/null; enough for the protocol's messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { NUL, NUM, STR, ARR, OBJ };

typedef struct node {
    enum kind kind;
    double num;
    char *key;           /* the key of a member of an object */
    struct node *child;  /* first element or member */
    struct node *next;   /* next sibling */
} node;

static const char *at; /* the reader's position */

static void skip(void) { while (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t') at++; }

static node *value(void);

static char *string(void) {
    const char *start = ++at; /* past the opening quote */
    while (*at && *at != '"') at += (*at == '\\' && at[1]) ? 2 : 1;
    size_t n = (size_t)(at - start);
    char *s = malloc(n + 1);
    memcpy(s, start, n);
    s[n] = 0;
    if (*at) at++;
    return s;
}

static node *fresh(enum kind kind) {
    node *n = calloc(1, sizeof *n);
    n->kind = kind;
    return n;
}

static node *list(char close, int keyed) {
    node *n = fresh(keyed ? OBJ : ARR), **tail = &n->child;
    at++;
    for (skip(); *at && *at != close; skip()) {
        char *key = NULL;
        if (keyed) {
            key = string();
            skip();
            if (*at == ':') at++;
        }
        node *item = value();
        item->key = key;
        *tail = item;
        tail = &item->next;
        skip();
        if (*at == ',') at++;
    }
    if (*at) at++;
    return n;
}

static node *value(void) {
    skip();
    if (*at == '{') return list('}', 1);
    if (*at == '[') return list(']', 0);
    if (*at == '"') {
        node *n = fresh(STR);
        free(string());
        return n;
    }
    if (*at == '-' || (*at >= '0' && *at <= '9')) {
        node *n = fresh(NUM);
        char *end;
        n->num = strtod(at, &end);
        at = end;
        return n;
    }
    while (*at >= 'a' && *at <= 'z') at++; /* true, false, null */
    return fresh(NUL);
}

static void release(node *n) {
    while (n) {
        node *next = n->next;
        release(n->child);
        free(n->key);
        free(n);
        n = next;
    }
}

static node *get(node *n, const char *key) {
    for (node *c = n ? n->child : NULL; c; c = c->next)
        if (c->key && strcmp(c->key, key) == 0) return c;
    return NULL;
}

static int num(node *n, const char *key) {
    node *c = get(n, key);
    return c ? (int)c->num : -1;
}

/* Reads one message (the lines before a "." line) into buf; returns 0 at the end of input. */
static int read_message(char **buf, size_t *cap) {
    char line[65536];
    size_t len = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (strcmp(line, ".\n") == 0 || strcmp(line, ".\r\n") == 0 || strcmp(line, ".") == 0) {
            (*buf)[len] = 0;
            return 1;
        }
        size_t n = strlen(line);
        if (len + n + 1 > *cap) {
            *cap = 2 * (len + n + 1);
            *buf = realloc(*buf, *cap);
        }
        memcpy(*buf + len, line, n);
        len += n;
    }
    return 0;
}

static int width, height, me;
static char *blocked; /* water, then (each turn) the squares my shades take */

static int open_square(int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height && !blocked[y * width + x];
}

int main(void) {
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    if (!read_message(&buf, &cap)) return 0;
    at = buf;
    node *init = value();
    node *map = get(init, "map");
    width = num(map, "width");
    height = num(map, "height");
    me = num(init, "my_id");
    char *water = calloc((size_t)(width * height), 1);
    blocked = calloc((size_t)(width * height), 1);
    for (node *w = get(map, "water_tiles")->child; w; w = w->next)
        water[num(w, "y") * width + num(w, "x")] = 1;
    release(init);
    printf(".\n");
    fflush(stdout);

    while (read_message(&buf, &cap)) {
        at = buf;
        node *state = value();
        node *food = get(state, "alive_food");
        memcpy(blocked, water, (size_t)(width * height));
        node *ants = get(state, "alive_ants");
        for (node *a = ants->child; a; a = a->next)
            if (num(a, "owner") == me) {
                node *p = get(a, "position");
                blocked[num(p, "y") * width + num(p, "x")] = 1; /* stays unless it moves */
            }
        printf("{\"data\": [");
        int first = 1, commands = 0;
        for (node *a = ants->child; a && commands < 100; a = a->next) {
            if (num(a, "owner") != me) continue;
            node *p = get(a, "position");
            int x = num(p, "x"), y = num(p, "y"), best = -1, bx = x, by = y;
            for (node *f = food->child; f; f = f->next) {
                node *q = get(f, "position");
                int d = abs(num(q, "x") - x) + abs(num(q, "y") - y);
                if (best < 0 || d < best) { best = d; bx = num(q, "x"); by = num(q, "y"); }
            }
            int nx = x + (bx > x) - (bx < x), ny = y;
            if (nx == x || !open_square(nx, ny)) { nx = x; ny = y + (by > y) - (by < y); }
            if ((nx == x && ny == y) || !open_square(nx, ny)) continue;
            blocked[y * width + x] = 0;
            blocked[ny * width + nx] = 1;
            printf("%s{\"id\": %d, \"target\": {\"x\": %d, \"y\": %d}}", first ? "" : ", ",
                   num(a, "id"), nx, ny);
            first = 0;
            commands++;
        }
        printf("]}\n.\n");
        fflush(stdout);
        release(state);
    }
    free(water);
    free(blocked);
    free(buf);
    return 0;
}
