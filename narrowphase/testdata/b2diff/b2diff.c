// b2diff answers narrow-phase queries with Box2D v3, one line of input to one
// line of output, for the tagged differential test b2diff_test.go (go test
// -tags box2d ./narrowphase). It lives under testdata so that the go tool
// never sees it.
//
// Build (the test does this itself; B2 is a Box2D build with libbox2d.a and
// src/include, such as the one /work/shared/peers/box2d/build.sh makes):
//
//	gcc -O2 -DNDEBUG -std=gnu17 -ffp-contract=off -I$B2/src/include b2diff.c $B2/libbox2d.a -lm -o b2diff
//
// Input lines (numbers in decimal, read as double):
//
//	collide SHAPE POSE SHAPE POSE
//	ray SHAPE POSE ox oy dx dy maxDist
//	cast SHAPE POSE SHAPE POSE dx dy       the first shape stays, the second moves by (dx, dy)
//
// SHAPE is one of
//
//	circle cx cy r
//	capsule x1 y1 x2 y2 r
//	segment x1 y1 x2 y2
//	poly n x1 y1 ... xn yn                 counter-clockwise, 3 <= n <= 8
//
// in its body's frame, and POSE is "px py c s": the body's world position and
// the cosine and sine of its angle (given, not recomputed, so that Box2D's
// rotation is the caller's rounded to float).
//
// Box2D computes in float, so each query is first made relative in double: the
// second shape's pose in the first one's frame (collide, cast), or the ray in
// the shape's frame (ray); only then is it rounded to float. Answers are
// rotated back to the world in double.
//
// Output lines:
//
//	collide: count nx ny sep0 sep1 x0 y0 x1 y1   world normal, separations and points; unused ones 0;
//	                                        Box2D has no segment-segment routine: "none"
//	ray:     hit fraction nx ny             fraction of maxDist; normal 0 0 when the origin is inside
//	cast:    hit fraction nx ny iterations  normal from the still shape toward the moving one
#include "box2d/collision.h"
#include "box2d/math_functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Kind { kCircle, kCapsule, kSegment, kPoly };

typedef struct Shape
{
	enum Kind kind;
	b2Circle circle;
	b2Capsule capsule;
	b2Segment segment;
	b2Polygon poly;
} Shape;

typedef struct Pose
{
	double px, py, c, s;
} Pose;

static int readShape( Shape* sh )
{
	char kind[16];
	if ( scanf( "%15s", kind ) != 1 )
		return 0;
	double v[16];
	if ( strcmp( kind, "circle" ) == 0 )
	{
		if ( scanf( "%lf %lf %lf", v, v + 1, v + 2 ) != 3 )
			return 0;
		sh->kind = kCircle;
		sh->circle = ( b2Circle ){ { (float)v[0], (float)v[1] }, (float)v[2] };
		return 1;
	}
	if ( strcmp( kind, "capsule" ) == 0 )
	{
		if ( scanf( "%lf %lf %lf %lf %lf", v, v + 1, v + 2, v + 3, v + 4 ) != 5 )
			return 0;
		sh->kind = kCapsule;
		sh->capsule = ( b2Capsule ){ { (float)v[0], (float)v[1] }, { (float)v[2], (float)v[3] }, (float)v[4] };
		return 1;
	}
	if ( strcmp( kind, "segment" ) == 0 )
	{
		if ( scanf( "%lf %lf %lf %lf", v, v + 1, v + 2, v + 3 ) != 4 )
			return 0;
		sh->kind = kSegment;
		sh->segment = ( b2Segment ){ { (float)v[0], (float)v[1] }, { (float)v[2], (float)v[3] } };
		return 1;
	}
	if ( strcmp( kind, "poly" ) == 0 )
	{
		int n;
		if ( scanf( "%d", &n ) != 1 || n < 3 || n > B2_MAX_POLYGON_VERTICES )
			return 0;
		// The vertices are the caller's convex polygon as they are: b2ComputeHull
		// would weld and drop points within its own tolerances, so the hull is
		// filled in directly.
		b2Hull hull = { 0 };
		for ( int i = 0; i < n; ++i )
		{
			if ( scanf( "%lf %lf", v, v + 1 ) != 2 )
				return 0;
			hull.points[i] = ( b2Vec2 ){ (float)v[0], (float)v[1] };
		}
		hull.count = n;
		sh->kind = kPoly;
		sh->poly = b2MakePolygon( &hull, 0.0f );
		return 1;
	}
	return 0;
}

static int readPose( Pose* p )
{
	return scanf( "%lf %lf %lf %lf", &p->px, &p->py, &p->c, &p->s ) == 4;
}

// relative returns b's pose in a's frame, computed in double and then rounded.
static b2Transform relative( Pose a, Pose b )
{
	double dx = b.px - a.px, dy = b.py - a.py;
	double x = a.c * dx + a.s * dy;
	double y = -a.s * dx + a.c * dy;
	double c = a.c * b.c + a.s * b.s;
	double s = a.c * b.s - a.s * b.c;
	return ( b2Transform ){ { (float)x, (float)y }, { (float)c, (float)s } };
}

// toWorld rotates a direction of a's frame into the world, in double.
static void toWorld( Pose a, b2Vec2 v, double* x, double* y )
{
	*x = a.c * v.x - a.s * v.y;
	*y = a.s * v.x + a.c * v.y;
}

static b2ShapeProxy proxyOf( const Shape* sh )
{
	switch ( sh->kind )
	{
		case kCircle:
			return b2MakeProxy( &sh->circle.center, 1, sh->circle.radius );
		case kCapsule:
			return b2MakeProxy( &sh->capsule.center1, 2, sh->capsule.radius );
		case kSegment:
			return b2MakeProxy( &sh->segment.point1, 2, 0.0f );
		default:
			return b2MakeProxy( sh->poly.vertices, sh->poly.count, 0.0f );
	}
}

// collideOrdered calls the Box2D routine for a (higher kind or equal) against b.
static int collideOrdered( const Shape* a, const Shape* b, b2Transform xf, b2LocalManifold* m )
{
	switch ( a->kind * 4 + b->kind )
	{
		case kCircle * 4 + kCircle:
			*m = b2CollideCircles( &a->circle, &b->circle, xf );
			return 1;
		case kCapsule * 4 + kCircle:
			*m = b2CollideCapsuleAndCircle( &a->capsule, &b->circle, xf );
			return 1;
		case kSegment * 4 + kCircle:
			*m = b2CollideSegmentAndCircle( &a->segment, &b->circle, xf );
			return 1;
		case kPoly * 4 + kCircle:
			*m = b2CollidePolygonAndCircle( &a->poly, &b->circle, xf );
			return 1;
		case kCapsule * 4 + kCapsule:
			*m = b2CollideCapsules( &a->capsule, &b->capsule, xf );
			return 1;
		case kSegment * 4 + kCapsule:
			*m = b2CollideSegmentAndCapsule( &a->segment, &b->capsule, xf );
			return 1;
		case kPoly * 4 + kCapsule:
			*m = b2CollidePolygonAndCapsule( &a->poly, &b->capsule, xf );
			return 1;
		case kPoly * 4 + kPoly:
			*m = b2CollidePolygons( &a->poly, &b->poly, xf );
			return 1;
		case kSegment * 4 + kPoly:
			*m = b2CollideSegmentAndPolygon( &a->segment, &b->poly, xf );
			return 1;
		default:
			return 0;
	}
}

static void doCollide( void )
{
	Shape a, b;
	Pose pa, pb;
	if ( !readShape( &a ) || !readPose( &pa ) || !readShape( &b ) || !readPose( &pb ) )
	{
		printf( "error\n" );
		return;
	}
	b2LocalManifold m;
	int flip = 0;
	Pose frame = pa;
	if ( !collideOrdered( &a, &b, relative( pa, pb ), &m ) )
	{
		if ( !collideOrdered( &b, &a, relative( pb, pa ), &m ) )
		{
			printf( "none\n" );
			return;
		}
		flip = 1;
		frame = pb;
	}
	double nx = 0, ny = 0;
	if ( m.pointCount > 0 )
	{
		toWorld( frame, m.normal, &nx, &ny );
		if ( flip )
		{
			nx = -nx;
			ny = -ny;
		}
	}
	double s[2] = { 0, 0 }, x[2] = { 0, 0 }, y[2] = { 0, 0 };
	for ( int i = 0; i < m.pointCount; ++i )
	{
		s[i] = m.points[i].separation;
		toWorld( frame, m.points[i].point, x + i, y + i );
		x[i] += frame.px;
		y[i] += frame.py;
	}
	printf( "%d %.9g %.9g %.9g %.9g %.17g %.17g %.17g %.17g\n", m.pointCount, nx, ny, s[0], s[1], x[0], y[0], x[1], y[1] );
}

static void doRay( void )
{
	Shape sh;
	Pose p;
	double ox, oy, dx, dy, maxDist;
	if ( !readShape( &sh ) || !readPose( &p ) || scanf( "%lf %lf %lf %lf %lf", &ox, &oy, &dx, &dy, &maxDist ) != 5 )
	{
		printf( "error\n" );
		return;
	}
	double rx = ox - p.px, ry = oy - p.py;
	double tx = dx * maxDist, ty = dy * maxDist;
	b2RayCastInput in = {
		{ (float)( p.c * rx + p.s * ry ), (float)( -p.s * rx + p.c * ry ) },
		{ (float)( p.c * tx + p.s * ty ), (float)( -p.s * tx + p.c * ty ) },
		1.0f,
	};
	b2CastOutput out;
	switch ( sh.kind )
	{
		case kCircle:
			out = b2RayCastCircle( &sh.circle, &in );
			break;
		case kCapsule:
			out = b2RayCastCapsule( &sh.capsule, &in );
			break;
		case kSegment:
			out = b2RayCastSegment( &sh.segment, &in, false );
			break;
		default:
			out = b2RayCastPolygon( &sh.poly, &in );
			break;
	}
	double nx, ny;
	toWorld( p, out.normal, &nx, &ny );
	printf( "%d %.9g %.9g %.9g\n", out.hit ? 1 : 0, out.fraction, nx, ny );
}

static void doCast( void )
{
	Shape a, b;
	Pose pa, pb;
	double dx, dy;
	if ( !readShape( &a ) || !readPose( &pa ) || !readShape( &b ) || !readPose( &pb ) ||
		 scanf( "%lf %lf", &dx, &dy ) != 2 )
	{
		printf( "error\n" );
		return;
	}
	b2ShapeCastPairInput in = { 0 };
	in.proxyA = proxyOf( &a );
	in.proxyB = proxyOf( &b );
	in.transform = relative( pa, pb );
	in.translationB = ( b2Vec2 ){ (float)( pa.c * dx + pa.s * dy ), (float)( -pa.s * dx + pa.c * dy ) };
	in.maxFraction = 1.0f;
	in.canEncroach = false;
	b2CastOutput out = b2ShapeCast( &in );
	double nx, ny;
	toWorld( pa, out.normal, &nx, &ny );
	printf( "%d %.9g %.9g %.9g %d\n", out.hit ? 1 : 0, out.fraction, nx, ny, out.iterations );
}

int main( void )
{
	char cmd[16];
	while ( scanf( "%15s", cmd ) == 1 )
	{
		if ( strcmp( cmd, "collide" ) == 0 )
			doCollide();
		else if ( strcmp( cmd, "ray" ) == 0 )
			doRay();
		else if ( strcmp( cmd, "cast" ) == 0 )
			doCast();
		else
		{
			printf( "error\n" );
			int ch;
			while ( ( ch = getchar() ) != EOF && ch != '\n' )
				;
		}
	}
	return 0;
}
